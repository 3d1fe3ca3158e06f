/**
 * Where a column's memory is bound to a node: page-aligned off-heap segments allocated on a node
 * or interleaved, freed in batches when their {@link io.numacol.memory.NodeArena} closes,
 * accounted per node and component, and moved between nodes page by page.
 */
package io.numacol.memory;
