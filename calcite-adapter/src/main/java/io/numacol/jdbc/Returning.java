package io.numacol.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * An {@code INSERT}, {@code UPDATE} or {@code DELETE ... RETURNING} (PostgreSQL's and DuckDB's
 * syntax), read at the JDBC layer: Calcite's parser has no RETURNING, so the statement runs
 * without it while the rows it stores (a DELETE: the rows it deletes, as they were) are collected
 * ({@link io.numacol.calcite.dml.ChangedRows}), and the list is answered from them. A list of
 * column names (or {@code *}) takes the columns as stored ({@link RowsResult}); any other list
 * (expressions, aliases, {@code t.*}) is compiled over the table's rows ({@link ReturningExpressions}).
 *
 * @param statement the statement without its RETURNING clause
 * @param columns   the column names returned, in order; empty for {@code *} (every column) and for a list of expressions
 * @param list      the list as written when it is not column names alone, else null
 */
record Returning(String statement, List<String> columns, String list) {
    /**
     * The words that are values and no column's name: other reserved words of Calcite's (AT,
     * VALUE) name columns in numacol's tables, whose DDL takes them, and PostgreSQL reserves none of them.
     */
    private static final Set<String> VALUE_WORDS = Set.of("TRUE", "FALSE", "NULL", "UNKNOWN", "CURRENT_DATE", "CURRENT_TIME",
            "CURRENT_TIMESTAMP", "LOCALTIME", "LOCALTIMESTAMP", "CURRENT_USER", "SESSION_USER", "USER", "CURRENT_ROLE",
            "CURRENT_SCHEMA", "CURRENT_CATALOG");

    /**
     * {@code sql}'s RETURNING clause, or null if it has none (or is no INSERT, UPDATE or
     * DELETE: the word is then left to the planner, which reports it).
     */
    static Returning parse(String sql) {
        if (sql == null) {
            return null;
        }
        String verb = firstWord(sql);
        if (!verb.equals("INSERT") && !verb.equals("UPDATE") && !verb.equals("DELETE")) {
            return null;
        }
        int at = topLevelReturning(sql);
        if (at < 0) {
            return null;
        }
        String list = sql.substring(at + "RETURNING".length()).strip();
        if (list.endsWith(";")) {
            list = list.substring(0, list.length() - 1).strip();
        }
        List<String> columns = new ArrayList<>();
        if (!list.equals("*")) {
            for (String item : list.split(",", -1)) {
                String name = columnName(item.strip());
                if (name == null) {
                    return new Returning(sql.substring(0, at), List.of(), list);
                }
                columns.add(name);
            }
        }
        return new Returning(sql.substring(0, at), columns, null);
    }

    /** One item of the list as the column name it is (a quoted one as written, without its quotes), or null if it is none. */
    private static String columnName(String item) {
        if (item.matches("[\\p{L}_][\\p{L}\\p{N}_$]*")) {
            // a word that is a value (TRUE, NULL, CURRENT_DATE) is an expression, not a column
            return VALUE_WORDS.contains(item.toUpperCase(Locale.ROOT)) ? null : item;
        }
        if (item.length() > 2 && item.startsWith("\"") && item.endsWith("\"")
                && !item.substring(1, item.length() - 1).replace("\"\"", "").contains("\"")) {
            return item.substring(1, item.length() - 1).replace("\"\"", "\"");
        }
        return null;
    }

    private static String firstWord(String sql) {
        int i = 0;
        while (i < sql.length() && (Character.isWhitespace(sql.charAt(i)) || sql.charAt(i) == '(')) {
            i++;
        }
        int start = i;
        while (i < sql.length() && Character.isLetter(sql.charAt(i))) {
            i++;
        }
        return sql.substring(start, i).toUpperCase(Locale.ROOT);
    }

    /**
     * Where the word RETURNING starts outside quotes, comments and parentheses, the last such one
     * (a column may be named returning inside the statement only if quoted), or -1.
     */
    private static int topLevelReturning(String sql) {
        int depth = 0;
        int found = -1;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                int end = sql.indexOf(c, i + 1);
                while (end >= 0 && end + 1 < sql.length() && sql.charAt(end + 1) == c) {
                    end = sql.indexOf(c, end + 2); // a doubled quote inside
                }
                if (end < 0) {
                    return -1; // unterminated: the planner reports it
                }
                i = end;
            } else if (c == '-' && sql.startsWith("--", i)) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? sql.length() : end;
            } else if (c == '/' && sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? sql.length() : end + 1;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0 && (c == 'r' || c == 'R') && sql.regionMatches(true, i, "RETURNING", 0, 9)
                    && (i == 0 || !isWordChar(sql.charAt(i - 1)))
                    && (i + 9 == sql.length() || !isWordChar(sql.charAt(i + 9)))) {
                found = i;
            }
        }
        return found;
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }
}
