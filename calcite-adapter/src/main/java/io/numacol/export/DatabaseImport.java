package io.numacol.export;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * IMPORT DATABASE 'dir': runs an export's {@code schema.sql}, then its {@code load.sql}, on a
 * connection, statement by statement; a COPY's relative file name is read in {@code dir}, so an
 * export can be moved or copied elsewhere whole. A statement that fails stops the import with its
 * own SQLException, the statement named in the message.
 */
public final class DatabaseImport {
    /** A COPY's file name, which a relative one is resolved against the export's directory in. */
    private static final Pattern COPY_FILE = Pattern.compile("(?is)^(COPY\\s+.+?\\s+FROM\\s+)'((?:[^']|'')*)'(.*)$");

    private DatabaseImport() {
    }

    /** Runs the scripts of the export in {@code dir} on {@code connection}; returns the rows its COPYs loaded. */
    public static long run(Connection connection, Path dir) throws SQLException {
        long rows = 0;
        try (Statement statement = connection.createStatement()) {
            for (String script : List.of(DatabaseExport.SCHEMA_SCRIPT, DatabaseExport.LOAD_SCRIPT)) {
                for (String sql : SqlScript.statements(read(dir.resolve(script)))) {
                    String resolved = resolveFile(sql, dir);
                    try {
                        if (statement.execute(resolved)) {
                            try (ResultSet rs = statement.getResultSet()) {
                                while (rs.next()) {
                                    // a query (a sequence's nextval) does its work as its rows are read
                                }
                            }
                        } else {
                            rows += Math.max(0, statement.getLargeUpdateCount());
                        }
                    } catch (SQLException e) {
                        throw new SQLException("IMPORT DATABASE stopped at a statement of " + script + ": " + e.getMessage()
                                + " (statement: " + abbreviated(sql) + ")", e.getSQLState(), e);
                    }
                }
            }
        }
        return rows;
    }

    /** {@code sql} with a relative COPY file name resolved against {@code dir}. */
    static String resolveFile(String sql, Path dir) {
        Matcher m = COPY_FILE.matcher(sql);
        if (!m.matches()) {
            return sql;
        }
        String file = m.group(2).replace("''", "'");
        Path path = Path.of(file);
        if (path.isAbsolute()) {
            return sql;
        }
        return m.group(1) + "'" + dir.resolve(path).toAbsolutePath().toString().replace("'", "''") + "'" + m.group(3);
    }

    private static String read(Path script) throws SQLException {
        try {
            return Files.readString(script, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new SQLException("IMPORT DATABASE: " + script + " does not exist: name the directory EXPORT DATABASE wrote",
                    "58P01", e);
        } catch (IOException e) {
            throw new SQLException("IMPORT DATABASE could not read " + script + ": " + e.getMessage(), "58030", e);
        }
    }

    private static String abbreviated(String sql) {
        String line = sql.replaceAll("\\s+", " ");
        return line.length() <= 200 ? line : line.substring(0, 200) + "...";
    }
}
