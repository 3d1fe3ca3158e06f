/**
 * The write-ahead log of a file database: every committed transaction's changes, appended and
 * forced before the commit returns, so that opening the database after a crash rebuilds what the
 * last checkpoint does not hold by replaying the log over it.
 *
 * <p>The pieces: {@link io.numacol.wal.LogRecord} is what is logged (a transaction's new parts,
 * as a columnar {@link io.numacol.wal.RowBatch} of stored values or as a part file it wrote, its
 * deleted row ids and dropped parts, the whole catalog after its DDL, its Commit or Abort; a
 * checkpoint's completion). Tables are named by their durable ids, not their names. {@link io.numacol.wal.LogWriter}
 * appends records from many threads and makes commits durable as a {@link io.numacol.wal.Durability}
 * says, concurrent committers sharing one force (group commit). {@link io.numacol.wal.LogReader}
 * reads the records back in LSN order and cuts a tail a crash tore; {@link io.numacol.wal.LogReplay}
 * groups them by transaction and hands over the committed ones in commit order.
 *
 * <p>On disk the log is a directory of files, each named by the LSN of its first record and
 * starting with a header (magic bytes, format version, that LSN); each record is framed by its
 * length and a CRC32C, so a torn write is found and never replayed (the layout is in
 * {@code LogFormat}). {@link io.numacol.wal.LogWriter#rotate} starts a new file, and
 * {@link io.numacol.wal.LogWriter#deleteBefore} drops the files a checkpoint made redundant.
 *
 * <p>The protocol a database follows with it: log a transaction's changes as it makes them (or
 * all at its commit), then {@code commit}, and publish the transaction only after {@code commit}
 * returns. A checkpoint holds the transactions whose Commit has an LSN below some {@code c};
 * once it is durable, append {@code CheckpointDone(c)}, {@code sync}, and delete the files before
 * {@code min(c, oldestOpenLsn())}. Opening: load the checkpoint, {@code LogReplay.replay(dir, c,
 * ...)}, then open the {@code LogWriter} (which cuts a torn tail and appends after it).
 *
 * <p>The package depends only on {@code io.numacol.storage.types}: it knows column types, not
 * tables or the catalog. A catalog state travels as the bytes of an encoded
 * {@code io.numacol.checkpoint.CatalogImage}, which the log neither reads nor checks.
 */
package io.numacol.wal;
