/**
 * Column storage: the bit-packed {@link io.numacol.storage.IndexVector} that holds a column's
 * value ids (vids) in node-placed off-heap memory.
 */
package io.numacol.storage;
