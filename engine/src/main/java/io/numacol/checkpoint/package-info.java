/**
 * Checkpoint files of a durable (file) database: one {@link io.numacol.checkpoint.PartFile} per
 * table part, holding its dictionaries, IndexVectors, indexes and deleted rows byte for byte as
 * they are in memory, each section with a CRC32C; and the {@link io.numacol.checkpoint.Manifest},
 * which holds the whole catalog as a {@link io.numacol.checkpoint.CatalogImage} (schemas, tables by
 * durable id with their columns, keys, identity counters and part files, views, indexes), and the
 * log position the checkpoint covers, and is replaced by an atomic rename. A catalog image is
 * also encoded on its own, framed and checksummed, for the write-ahead log to carry after a DDL;
 * refused, it names the log where a file's name would be. Reading a checkpoint back fills
 * node-placed memory straight from the files and refuses anything damaged, naming the file and
 * the section.
 *
 * <p>When to checkpoint and the write-ahead log are the database's business; this package only
 * writes and reads the files.
 */
package io.numacol.checkpoint;
