package io.numacol.durability;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The lock a database holds on its directory while open: an operating-system lock on a file in it,
 * which the kernel drops when the process dies however it dies, so a crash never leaves a
 * database locked.
 */
final class DirectoryLock implements AutoCloseable {
    static final String FILE_NAME = "LOCK";
    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock of {@code directory}, or throws naming the lock file. */
    static DirectoryLock take(Path directory) throws IOException {
        Files.createDirectories(directory);
        Path file = directory.resolve(FILE_NAME);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw new DatabaseLockedException(file);
            }
            return new DirectoryLock(channel, lock);
        } catch (OverlappingFileLockException e) { // this JVM holds it: the registry should have shared that database
            channel.close();
            throw new DatabaseLockedException(file);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /**
     * Takes a shared hold of {@code directory}'s lock, as each read-only opener does: many
     * processes may hold one together, none while a process has the database open to write.
     * Nothing is created: a directory no database was ever opened in is refused.
     */
    static DirectoryLock share(Path directory) throws IOException {
        Path file = directory.resolve(FILE_NAME);
        if (!Files.isRegularFile(file)) {
            throw new NoSuchFileException(file.toString(), null, "no numacol database is in " + directory
                    + " (it has no " + FILE_NAME + " file): a read-only open creates none");
        }
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        try {
            FileLock lock = channel.tryLock(0, Long.MAX_VALUE, true);
            if (lock == null) {
                throw new DatabaseLockedException(file);
            }
            return new DirectoryLock(channel, lock);
        } catch (OverlappingFileLockException e) {
            channel.close();
            throw new DatabaseLockedException(file);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
