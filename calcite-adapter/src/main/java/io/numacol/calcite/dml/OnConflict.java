package io.numacol.calcite.dml;

import io.numacol.calcite.SqlText;
import io.numacol.storage.TableSchema;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * The {@code ON CONFLICT} clause of an {@code INSERT} (PostgreSQL's upsert), read from the text:
 * Calcite's parser has none, so the INSERT before it is planned as any INSERT ({@link #insert}),
 * and the clause says what {@link Upsert} does with a row whose key exists.
 * <pre>
 * INSERT INTO t [AS alias] [(columns)] source
 *   ON CONFLICT [(key columns) | ON CONSTRAINT name]
 *   DO NOTHING | DO UPDATE SET column = expression [, ...] [WHERE condition]
 * </pre>
 * and DuckDB's (and SQLite's) {@code INSERT OR IGNORE INTO}, which is {@code ON CONFLICT DO
 * NOTHING}, and {@code INSERT OR REPLACE INTO}, which updates the inserted columns of the row
 * whose key (the table's only PRIMARY KEY or UNIQUE constraint) the new row repeats.
 *
 * @param insert      the INSERT without the clause and without the target's alias
 * @param table       the target table's name parts, as written (quoted ones without quotes)
 * @param alias       the name the SET expressions call the existing row by: the alias, else the table's name
 * @param target      the conflict target's columns; empty when none is named
 * @param constraint  the constraint named by {@code ON CONSTRAINT}, or null
 * @param update      DO UPDATE (else DO NOTHING)
 * @param setColumns  DO UPDATE's columns, in order
 * @param setValues   DO UPDATE's expressions, as written
 * @param where       DO UPDATE's condition as written, or null
 * @param replace     {@code INSERT OR REPLACE} (DuckDB's and SQLite's): DO UPDATE of the inserted
 *                    columns on the table's key, which {@link #replacing} spells out
 * @param columns     the INSERT's column list as written; empty when it names none (every column)
 */
public record OnConflict(String insert, List<String> table, String alias, List<String> target, String constraint,
                         boolean update, List<String> setColumns, List<String> setValues, String where,
                         boolean replace, List<String> columns) {

    /** A word, quoted name, parameter or symbol of the text, at its parenthesis depth. */
    private record Token(int start, int end, String text, int depth, boolean quoted) {
        boolean is(String word) {
            return !quoted && text.equalsIgnoreCase(word);
        }

        /** The name it spells: a quoted one as written, an unquoted one as written too (numacol's names keep their case). */
        String name() {
            return quoted ? text.substring(1, text.length() - 1).replace("\"\"", "\"") : text;
        }
    }

    /**
     * {@code sql}'s ON CONFLICT clause, or null if it has none (or is no INSERT: the planner then
     * reports what is wrong).
     *
     * @throws IllegalArgumentException the clause is malformed, with what was expected
     */
    public static OnConflict parse(String sql) {
        if (sql == null) {
            return null;
        }
        List<Token> tokens = tokens(sql);
        if (tokens.isEmpty() || !tokens.getFirst().is("INSERT")) {
            return null;
        }
        int on = -1;
        for (int i = 0; i + 1 < tokens.size(); i++) {
            if (tokens.get(i).depth() == 0 && tokens.get(i).is("ON") && tokens.get(i + 1).is("CONFLICT")) {
                on = i;
                break;
            }
        }
        boolean or = tokens.size() > 2 && tokens.get(1).is("OR") && (tokens.get(2).is("IGNORE") || tokens.get(2).is("REPLACE"));
        if (on < 0 && !or) {
            return null;
        }
        if (on >= 0 && or) {
            throw new IllegalArgumentException("syntax error at or near \"ON CONFLICT\": INSERT OR "
                    + tokens.get(2).text().toUpperCase(Locale.ROOT) + " says what a conflict does already");
        }
        int end = on < 0 ? tokens.size() : on;
        // INSERT [OR IGNORE | OR REPLACE] INTO name[.name] [AS alias] [(columns)]
        int i = or ? 3 : 1;
        expect(tokens, i++, "INTO");
        List<String> table = new ArrayList<>();
        table.add(name(tokens, i++, "a table name"));
        while (i + 1 < end && tokens.get(i).text().equals(".")) {
            table.add(name(tokens, i + 1, "a table name"));
            i += 2;
        }
        String alias = table.getLast();
        StringBuilder insert = new StringBuilder(on < 0 ? sql : sql.substring(0, tokens.get(on).start()));
        int aliasAt = -1;
        if (i < end && tokens.get(i).is("AS")) {
            alias = name(tokens, i + 1, "an alias after AS");
            aliasAt = i;
            i += 2;
        }
        List<String> columns = new ArrayList<>();
        if (i + 2 < end && tokens.get(i).text().equals("(") && !tokens.get(i + 1).is("SELECT") && !tokens.get(i + 1).is("VALUES")) {
            for (int c = i + 1; c < end; c += 2) {
                columns.add(name(tokens, c, "a column name"));
                if (c + 1 >= end || !tokens.get(c + 1).text().equals(",")) {
                    break;
                }
            }
        }
        // Calcite's INSERT takes no alias and no OR: cut from the end, so that the earlier positions hold
        if (aliasAt >= 0) {
            insert.delete(tokens.get(aliasAt).start(), tokens.get(aliasAt + 1).end());
        }
        if (or) {
            insert.delete(tokens.get(1).start(), tokens.get(3).start());
            return new OnConflict(insert.toString(), table, alias, List.of(), null, false, List.of(), List.of(), null,
                    tokens.get(2).is("REPLACE"), columns);
        }
        // the conflict target
        int at = on + 2;
        List<String> target = new ArrayList<>();
        String constraint = null;
        if (at < tokens.size() && tokens.get(at).text().equals("(")) {
            at++;
            while (true) {
                target.add(name(tokens, at++, "a column of the conflict target"));
                if (at < tokens.size() && tokens.get(at).text().equals(",")) {
                    at++;
                    continue;
                }
                expect(tokens, at++, ")");
                break;
            }
        } else if (at < tokens.size() && tokens.get(at).is("ON")) {
            expect(tokens, at + 1, "CONSTRAINT");
            constraint = name(tokens, at + 2, "a constraint name after ON CONSTRAINT");
            at += 3;
        }
        expect(tokens, at++, "DO");
        if (at < tokens.size() && tokens.get(at).is("NOTHING")) {
            if (at + 1 < tokens.size() && !tokens.get(at + 1).text().equals(";")) {
                throw new IllegalArgumentException("syntax error at or near \"" + tokens.get(at + 1).text()
                        + "\": ON CONFLICT DO NOTHING ends the statement (RETURNING may follow)");
            }
            return new OnConflict(insert.toString(), table, alias, target, constraint, false, List.of(), List.of(), null, false, columns);
        }
        expect(tokens, at++, "UPDATE");
        expect(tokens, at++, "SET");
        List<String> setColumns = new ArrayList<>();
        List<String> values = new ArrayList<>();
        String where = null;
        end = tokens.size();
        if (tokens.getLast().text().equals(";")) {
            end--;
        }
        while (true) {
            setColumns.add(name(tokens, at++, "a column to SET"));
            expect(tokens, at++, "=");
            int from = at;
            while (at < end && !(tokens.get(at).depth() == 0 && (tokens.get(at).text().equals(",") || tokens.get(at).is("WHERE")))) {
                at++;
            }
            if (from == at) {
                throw new IllegalArgumentException("syntax error: SET " + setColumns.getLast() + " = needs a value");
            }
            values.add(text(sql, tokens, from, at));
            if (at < end && tokens.get(at).text().equals(",")) {
                at++;
                continue;
            }
            break;
        }
        if (at < end && tokens.get(at).is("WHERE")) {
            if (at + 1 >= end) {
                throw new IllegalArgumentException("syntax error: WHERE needs a condition");
            }
            where = text(sql, tokens, at + 1, end);
        }
        return new OnConflict(insert.toString(), table, alias, target, constraint, true, setColumns, values, where, false, columns);
    }

    /** The text of tokens {@code [from, to)}. */
    private static String text(String sql, List<Token> tokens, int from, int to) {
        return sql.substring(tokens.get(from).start(), tokens.get(to - 1).end());
    }

    private static void expect(List<Token> tokens, int i, String word) {
        if (i >= tokens.size() || !(tokens.get(i).is(word) || tokens.get(i).text().equals(word))) {
            String found = i >= tokens.size() ? "end of input" : "\"" + tokens.get(i).text() + "\"";
            throw new IllegalArgumentException("syntax error at or near " + found + " in ON CONFLICT: expected " + word
                    + " (ON CONFLICT [(columns) | ON CONSTRAINT name] DO NOTHING | DO UPDATE SET column = value, ... [WHERE condition])");
        }
    }

    private static String name(List<Token> tokens, int i, String what) {
        if (i >= tokens.size() || !(tokens.get(i).quoted() || Character.isLetter(tokens.get(i).text().charAt(0))
                || tokens.get(i).text().charAt(0) == '_')) {
            String found = i >= tokens.size() ? "end of input" : "\"" + tokens.get(i).text() + "\"";
            throw new IllegalArgumentException("syntax error at or near " + found + " in ON CONFLICT: expected " + what);
        }
        return tokens.get(i).name();
    }

    /** The statement's tokens outside string literals and comments. */
    private static List<Token> tokens(String sql) {
        List<Token> out = new ArrayList<>();
        int depth = 0;
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '\'') {
                int end = SqlText.afterQuoted(sql, i);
                out.add(new Token(i, end, sql.substring(i, end), depth, true)); // a literal: never a word
                i = end;
            } else if (c == '"') {
                int end = SqlText.afterQuoted(sql, i);
                out.add(new Token(i, end, sql.substring(i, end), depth, true));
                i = end;
            } else if (c == '-' && sql.startsWith("--", i)) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end;
            } else if (c == '/' && sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (Character.isLetterOrDigit(c) || c == '_') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$')) {
                    i++;
                }
                out.add(new Token(start, i, sql.substring(start, i), depth, false));
            } else {
                if (c == ')') {
                    depth--;
                }
                out.add(new Token(i, i + 1, String.valueOf(c), depth, false));
                if (c == '(') {
                    depth++;
                }
                i++;
            }
        }
        return out;
    }

    /**
     * {@code expression} with every name that {@code column} says is a column of the table, and
     * that is written alone (no table before it, no call after it), qualified by {@code alias}:
     * PostgreSQL reads such a name in DO UPDATE as the existing row's.
     */
    public static String qualify(String expression, Predicate<String> column, String alias) {
        List<Token> tokens = tokens(expression);
        StringBuilder out = new StringBuilder(expression);
        for (int i = tokens.size() - 1; i >= 0; i--) {
            Token t = tokens.get(i);
            boolean name = t.quoted() ? t.text().startsWith("\"") : Character.isLetter(t.text().charAt(0)) || t.text().charAt(0) == '_';
            boolean alone = (i == 0 || !tokens.get(i - 1).text().equals("."))
                    && (i + 1 == tokens.size() || !(tokens.get(i + 1).text().equals(".") || tokens.get(i + 1).text().equals("(")));
            if (name && alone && column.test(t.name())) {
                out.insert(t.start(), alias + ".");
            }
        }
        return out.toString();
    }

    /**
     * {@code INSERT OR REPLACE} spelled out for {@code schema}: DO UPDATE on the table's one key
     * (PRIMARY KEY or UNIQUE) of every inserted column outside the key to the proposed value (DO
     * NOTHING when there is none); any other clause as it is.
     *
     * @throws IllegalStateException with SQLSTATE 42P10: the table has no key, or several
     */
    public OnConflict replacing(TableSchema schema) {
        if (!replace) {
            return this;
        }
        if (schema.keys().size() != 1) { // as DuckDB: with two keys, which row it replaces is not clear
            throw Upsert.failure("42P10", "INSERT OR REPLACE needs one PRIMARY KEY or UNIQUE constraint on table \""
                    + table.getLast() + "\" to find the row it replaces, and it has " + schema.keys().size()
                    + ": use ON CONFLICT (columns) DO UPDATE SET ...");
        }
        TableSchema.KeyDef key = schema.keys().getFirst();
        List<String> target = new ArrayList<>();
        key.columns().forEach(c -> target.add(schema.column(c).name()));
        List<String> set = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (int c = 0; c < schema.size(); c++) {
            String name = schema.column(c).name();
            boolean inserted = columns.isEmpty() || columns.stream().anyMatch(name::equalsIgnoreCase);
            if (inserted && !key.columns().contains(c)) {
                set.add(name);
                values.add("EXCLUDED.\"" + name.replace("\"", "\"\"") + '"');
            }
        }
        return new OnConflict(insert, table, alias, target, null, !set.isEmpty(), set, values, null, false, columns);
    }
}
