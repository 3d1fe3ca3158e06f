/**
 * Checkpoint files of a durable (file) database: one {@link io.numacol.checkpoint.PartFile} per
 * table part, holding its dictionaries, IndexVectors, indexes and deleted rows byte for byte as
 * they are in memory, each section with a CRC32C; and the {@link io.numacol.checkpoint.Manifest},
 * which names the tables, their part files and the log position the checkpoint covers, and is
 * replaced by an atomic rename. Reading a checkpoint back fills node-placed memory straight from
 * the files and refuses anything damaged, naming the file and the section.
 *
 * <p>When to checkpoint and the write-ahead log are the database's business; this package only
 * writes and reads the files.
 */
package io.numacol.checkpoint;
