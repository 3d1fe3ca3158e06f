/**
 * A file database's durability: {@link io.numacol.durability.DurableStore} logs every commit and
 * every DDL of a database to the write-ahead log ({@code io.numacol.wal}) in commit order, writes
 * checkpoints ({@code io.numacol.checkpoint}) and drops the log they cover, and
 * {@link io.numacol.durability.Recovery} reads a database directory back: the last checkpoint
 * straight into node-placed memory, then the log's committed tail over it.
 *
 * <p>What is logged is what the engine publishes, not the SQL that made it: each change of a
 * table's parts (a part's new rows, the row ids a version deletes, the parts it drops) as the
 * {@code CommitClock} publishes it, and after a DDL the whole catalog's description. A replay
 * therefore rebuilds parts under the ids and row positions later records name, whatever merged
 * or re-placed them in between, and never runs the planner.
 */
package io.numacol.durability;
