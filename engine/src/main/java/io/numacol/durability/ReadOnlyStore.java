package io.numacol.durability;

import io.numacol.storage.Catalog;
import io.numacol.storage.ChangeLog;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A file database opened to read only ({@code access_mode=read_only}): its checkpoint and log
 * read back as {@link DurableStore} reads them, but nothing written (a torn log tail is skipped,
 * not cut; no checkpoint; no file created or deleted), under a shared hold of the directory's
 * lock, so that several processes may read one database at once, and none while a process has
 * it open to write (nor may one open it to write meanwhile).
 *
 * <p>As the catalog's change log it refuses every change of what the database holds, before the
 * change is made ({@link ReadOnlyDatabaseException}); changes that keep every row as it was
 * (merges, parts moved between nodes) go on in memory.
 */
public final class ReadOnlyStore implements ChangeLog, AutoCloseable {
    private static final Logger LOG = Logger.getLogger(ReadOnlyStore.class.getName());

    private final Path directory;
    private final DirectoryLock lock;

    private ReadOnlyStore(Path directory, DirectoryLock lock) {
        this.directory = directory;
        this.lock = lock;
    }

    /**
     * Reads the database of {@code options}' directory into {@code database}'s catalog.
     *
     * @throws DatabaseLockedException a process has it open to write
     * @throws UncheckedIOException    no database is there, or a file cannot be read or is damaged
     */
    public static ReadOnlyStore open(StoredDatabase database, StorageOptions options) {
        Path directory = options.directory();
        DirectoryLock lock;
        try {
            lock = DirectoryLock.share(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open database " + directory + " to read: " + e.getMessage(), e);
        }
        try {
            Recovery.read(database, directory, directory.resolve(DurableStore.LOG_DIRECTORY));
            ReadOnlyStore store = new ReadOnlyStore(directory, lock);
            database.catalog().attachLog(store);
            return store;
        } catch (IOException e) {
            close(lock);
            throw new UncheckedIOException("cannot open database " + directory + ": " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            close(lock);
            throw e;
        }
    }

    public Path directory() {
        return directory;
    }

    @Override
    public void changed(Table table, List<TablePart> old, List<TablePart> replacement) {
        throw refused("change table " + table.name());
    }

    @Override
    public void changedKeepingRows(Table table, List<TablePart> old, List<TablePart> replacement) {
        // the same rows elsewhere: nothing the files hold changes
    }

    @Override
    public void catalogChanged(Catalog catalog) {
        throw refused("change the catalog (DDL, a sequence's numbers)");
    }

    private ReadOnlyDatabaseException refused(String what) {
        return new ReadOnlyDatabaseException("cannot " + what + ": database " + directory
                + " is open read-only (access_mode=read_only); open it without access_mode, in one process, to change it");
    }

    /** Drops this process's hold of the lock; nothing is written. */
    @Override
    public void close() {
        close(lock);
    }

    private static void close(DirectoryLock lock) {
        try {
            lock.close();
        } catch (IOException e) {
            LOG.log(Level.FINE, "releasing a read-only hold of a database's lock", e);
        }
    }
}
