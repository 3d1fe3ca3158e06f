package io.numacol.durability;

import java.nio.file.Path;

/** Another process (or another open database of this one) has the database directory: one writer at a time. */
public final class DatabaseLockedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public DatabaseLockedException(Path lockFile) {
        super("the database is in use by another process: it holds the lock " + lockFile
                + " (close the other process's connections, or open a copy of the directory)");
    }
}
