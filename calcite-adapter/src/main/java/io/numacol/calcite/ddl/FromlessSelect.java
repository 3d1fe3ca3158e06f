package io.numacol.calcite.ddl;

import io.numacol.calcite.SqlText;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * PostgreSQL's SELECT without FROM that still has a WHERE ({@code select '', '' where false}, as
 * tools write an empty branch of a UNION that types their result), which Calcite's grammar
 * refuses: such a SELECT gets {@code FROM (VALUES (0)) AS numacol_no_from (numacol_no_from)}
 * before its WHERE, one row for the WHERE to keep or drop, as PostgreSQL's FROM-less SELECT has.
 * A scan of the text that passes over quoted text, quoted names and comments and keeps a SELECT's
 * state per level of parentheses: a FROM inside a call ({@code EXTRACT(YEAR FROM d)}) or a WHERE
 * inside one ({@code FILTER (WHERE ...)}) is a level down and changes nothing.
 */
final class FromlessSelect {
    /** What goes before the WHERE of a SELECT without FROM. */
    static final String ONE_ROW = "FROM (VALUES (0)) AS numacol_no_from (numacol_no_from) ";

    private FromlessSelect() {
    }

    /** {@code sql} with {@link #ONE_ROW} before the WHERE of each SELECT that has no FROM; {@code sql} itself when none has. */
    static String rewrite(String sql) {
        if (!sql.toLowerCase(Locale.ROOT).contains("where")) {
            return sql;
        }
        // per open parenthesis (and the statement's level): 0 no SELECT, 1 a SELECT without FROM yet, 2 one with FROM
        Deque<int[]> levels = new ArrayDeque<>();
        levels.push(new int[1]);
        StringBuilder out = null;
        int copied = 0;
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                i = SqlText.afterQuoted(sql, i);
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (c == '(') {
                levels.push(new int[1]);
                i++;
            } else if (c == ')') {
                if (levels.size() > 1) {
                    levels.pop();
                }
                i++;
            } else if (Character.isLetter(c) || c == '_') {
                int end = i;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_' || sql.charAt(end) == '$')) {
                    end++;
                }
                int[] level = levels.peek();
                switch (sql.substring(i, end).toUpperCase(Locale.ROOT)) {
                    case "SELECT" -> level[0] = 1;
                    case "FROM" -> level[0] = level[0] == 1 ? 2 : level[0];
                    case "UNION", "INTERSECT", "EXCEPT" -> level[0] = 0;
                    case "WHERE" -> {
                        if (level[0] == 1) {
                            out = out == null ? new StringBuilder(n + ONE_ROW.length()) : out;
                            out.append(sql, copied, i).append(ONE_ROW);
                            copied = i;
                            level[0] = 2;
                        }
                    }
                    default -> {
                        // a name or another keyword
                    }
                }
                i = end;
            } else {
                i++;
            }
        }
        return out == null ? sql : out.append(sql, copied, n).toString();
    }
}
