package io.numacol.durability;

import io.numacol.wal.Durability;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where and how a file database keeps its data.
 *
 * @param directory       the database's directory (created if missing): its lock file, manifest,
 *                        part files and the {@value DurableStore#LOG_DIRECTORY} directory of the log
 * @param durability      what a commit waits for: forced to disk (the default), written to the
 *                        operating system, or nothing
 * @param checkpointBytes a checkpoint starts by itself once the log grew by this many bytes since
 *                        the last one (DuckDB's 16 MiB); 0 for only CHECKPOINT and close
 * @param readOnly        opened to read only ({@link ReadOnlyStore}): several processes may, none
 *                        while one has it open to write; nothing is written, every change refused
 */
public record StorageOptions(Path directory, Durability durability, long checkpointBytes, boolean readOnly) {
    /** DuckDB's automatic checkpoint threshold: a log replayed at open stays short. */
    public static final long DEFAULT_CHECKPOINT_BYTES = 16L << 20;

    public StorageOptions {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(durability, "durability");
        if (checkpointBytes < 0) {
            throw new IllegalArgumentException("checkpointBytes must not be negative, got " + checkpointBytes);
        }
    }

    public StorageOptions(Path directory, Durability durability, long checkpointBytes) {
        this(directory, durability, checkpointBytes, false);
    }

    public static StorageOptions of(Path directory) {
        return new StorageOptions(directory, Durability.FSYNC, DEFAULT_CHECKPOINT_BYTES);
    }
}
