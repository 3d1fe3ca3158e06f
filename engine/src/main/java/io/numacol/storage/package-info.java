/**
 * Column storage, over the column types of {@code io.numacol.storage.types} (a type and its
 * codec, which says how its values are encoded): the Dictionaries (sorted distinct values of a column part,
 * off-heap; a value's position is its vid), the bit-packed IndexVector of vids, the optional
 * Index (vid to positions), columns, table parts, tables and the catalog, and each statement's
 * view of the catalog (the version it plans against, and the dropped or altered tables it may
 * still read until it ends).
 *
 * <p>Multi-version concurrency control: every change of a table's parts commits a new version at
 * a timestamp of the catalog's {@code CommitClock}, and a reader (a view, a {@link
 * io.numacol.storage.Transaction}) reads the version of its read timestamp; a transaction's own
 * changes lie on top of its snapshot until it commits them all at one timestamp, first committer
 * wins. The PRIMARY KEY and UNIQUE constraints of a table ({@link
 * io.numacol.storage.TableSchema#keys()}) are checked at every commit against the values its
 * newest rows hold ({@code KeySet}); FOREIGN KEY constraints are checked against what the tables will hold
 * once a change is made ({@code ForeignKeys}, reading the parts' Dictionaries rather than a set of
 * its own). Rows are found by their key's values without a scan through each part's dictionary
 * and Index ({@link io.numacol.storage.KeyLookup}), which the parts built with enough rows carry for
 * the first column of each key and CREATE INDEX.
 */
package io.numacol.storage;
