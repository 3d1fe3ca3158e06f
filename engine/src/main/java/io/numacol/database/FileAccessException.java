package io.numacol.database;

/** SQL asked to read a file that its database's {@link FileAccess} does not let it read. */
public final class FileAccessException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public FileAccessException(String message) {
        super(message);
    }
}
