package io.numacol.database;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which files the SQL of a database may read: today {@code COPY t FROM 'file'}, the one statement
 * that reaches outside the database. An embedding application that runs SQL it did not write
 * turns it off ({@code externalAccess=false}, as DuckDB's {@code enable_external_access}) or
 * confines it to directories ({@code allowedDirectories=/data/in,/srv/load}); a path is checked
 * after its links and {@code ..} are resolved, so neither leads out. Whatever the setting, only
 * regular files are read: a device ({@code /dev/zero}) or a pipe with no writer never ends.
 *
 * @param enabled            whether SQL may read files at all
 * @param allowedDirectories where it may read them (real paths), every directory when empty
 */
public record FileAccess(boolean enabled, List<Path> allowedDirectories) {
    /** Every regular file the JVM can read. */
    public static final FileAccess ALL = new FileAccess(true, List.of());

    public FileAccess {
        allowedDirectories = List.copyOf(allowedDirectories);
    }

    /**
     * The setting of the connection properties {@code externalAccess} ({@code true} or {@code
     * false}, null for true) and {@code allowedDirectories} (existing directories separated by
     * commas, null for any).
     */
    public static FileAccess of(String externalAccess, String allowedDirectories) {
        boolean enabled = switch (externalAccess == null ? "true" : externalAccess.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("externalAccess must be true or false, got '" + externalAccess + "'");
        };
        List<Path> directories = new ArrayList<>();
        if (allowedDirectories != null) {
            for (String d : allowedDirectories.split(",")) {
                if (d.isBlank()) {
                    continue;
                }
                Path path = Path.of(d.strip());
                try {
                    path = path.toRealPath();
                } catch (IOException e) {
                    throw new IllegalArgumentException("allowedDirectories names '" + d.strip() + "', which does not exist");
                }
                if (!Files.isDirectory(path)) {
                    throw new IllegalArgumentException("allowedDirectories names '" + d.strip() + "', which is not a directory");
                }
                directories.add(path);
            }
        }
        return new FileAccess(enabled, directories);
    }

    /** {@code file} as the real path to read, or a {@link FileAccessException} saying why not. */
    public Path check(String file) {
        if (!enabled) {
            throw new FileAccessException("this database reads no files (externalAccess=false): cannot read '" + file + "'");
        }
        Path real;
        try {
            real = Path.of(file).toRealPath();
        } catch (NoSuchFileException e) {
            throw new UncheckedIOException("cannot read '" + file + "': no such file", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read '" + file + "': " + e.getMessage(), e);
        }
        if (!allowedDirectories.isEmpty() && allowedDirectories.stream().noneMatch(real::startsWith)) {
            throw new FileAccessException("'" + file + "' is outside the directories this database may read (allowedDirectories="
                    + String.join(",", allowedDirectories.stream().map(Path::toString).toList()) + ")");
        }
        if (!Files.isRegularFile(real)) {
            throw new FileAccessException("'" + file + "' is no regular file (a directory, a device or a pipe): COPY reads files; "
                    + "stream other sources through the Appender");
        }
        return real;
    }
}
