package io.numacol.calcite.ddl;

import io.numacol.calcite.CheckExpressions;
import io.numacol.calcite.DefaultExpressions;
import io.numacol.database.Appender;
import io.numacol.database.CsvFormat;
import io.numacol.placement.Placement;
import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.Sequence;
import io.numacol.storage.TableSchema;
import io.numacol.storage.types.ColumnType;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises and parses numacol's DDL:
 * <pre>
 * CREATE SCHEMA [IF NOT EXISTS] name
 * SET SCHEMA [= | TO] name | 'name'     -- or USE name
 * DROP SCHEMA [IF EXISTS] name [CASCADE | RESTRICT]
 * CREATE TABLE [IF NOT EXISTS] name (column type [NOT NULL | NULL | PRIMARY KEY | UNIQUE | REFERENCES ... | CHECK (expression)]...,
 *     [PRIMARY KEY (column, ...)], [UNIQUE (column, ...)], [FOREIGN KEY (column, ...) REFERENCES ...], [CHECK (expression)])
 *     [PLACEMENT placement]
 *     -- each constraint may be named by CONSTRAINT name; REFERENCES parent [(column, ...)]
 *     -- [MATCH SIMPLE] [ON DELETE action] [ON UPDATE action], action: NO ACTION | RESTRICT | CASCADE | SET NULL | SET DEFAULT
 * DROP TABLE [IF EXISTS] name [CASCADE | RESTRICT]   -- CASCADE drops the foreign keys that name it
 * ALTER TABLE [IF EXISTS] name ADD [CONSTRAINT name] PRIMARY KEY (column, ...)   -- the columns become NOT NULL
 * ALTER TABLE [IF EXISTS] name ADD [CONSTRAINT name] UNIQUE (column, ...)
 * ALTER TABLE [IF EXISTS] name ADD [CONSTRAINT name] FOREIGN KEY (column, ...) REFERENCES ...
 * ALTER TABLE [IF EXISTS] name ADD [CONSTRAINT name] CHECK (expression)
 *     -- each ADD CONSTRAINT checks the stored rows first: one that breaks it refuses the ALTER
 * ALTER TABLE [IF EXISTS] name DROP CONSTRAINT [IF EXISTS] name [CASCADE | RESTRICT]
 *     -- CASCADE drops the foreign keys that reference the key too
 * TRUNCATE [TABLE] name
 * ALTER TABLE [IF EXISTS] name ADD [COLUMN] [IF NOT EXISTS] column type [NOT NULL] [DEFAULT literal] [CHECK (expression)]
 * ALTER TABLE [IF EXISTS] name ALTER [COLUMN] column SET NOT NULL | DROP NOT NULL
 * ALTER TABLE [IF EXISTS] name ALTER [COLUMN] column SET DEFAULT literal-or-expression | DROP DEFAULT
 * ALTER TABLE [IF EXISTS] name ALTER [COLUMN] column [SET DATA] TYPE type   -- stored values cast to it
 * ALTER TABLE [IF EXISTS] name DROP [COLUMN] [IF EXISTS] column
 * ALTER TABLE [IF EXISTS] name RENAME TO name | RENAME [COLUMN] column TO column
 * ALTER TABLE [IF EXISTS] name SET PLACEMENT RR | IVP | INTERLEAVED | NODE(k) | DEFAULT
 * CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table (column [ASC | DESC], ...)
 * DROP INDEX [IF EXISTS] name
 * CREATE TABLE [IF NOT EXISTS] name AS query
 * CREATE [OR REPLACE] VIEW name [(column, ...)] AS query
 * DROP VIEW [IF EXISTS] name [CASCADE | RESTRICT]
 * CREATE SEQUENCE [IF NOT EXISTS] name [AS SMALLINT | INTEGER | BIGINT] [START [WITH] n] [INCREMENT [BY] n]
 *     [MINVALUE n | NO MINVALUE] [MAXVALUE n | NO MAXVALUE] [CYCLE | NO CYCLE]
 * DROP SEQUENCE [IF EXISTS] name [CASCADE | RESTRICT]
 * COMMENT ON TABLE name | COLUMN name.column IS 'text' | NULL   -- REMARKS of getTables and getColumns
 * COPY name FROM 'file.csv' [WITH (HEADER true|false, DELIMITER ',', MAX_LINE_SIZE n)]
 * CALL dbgen(sf = scale-factor)          -- or sf =&gt; scale-factor, as DuckDB takes it
 * </pre>
 * A recursive-descent parser, a method per production of this grammar: its length is the
 * grammar's, which is why it stays one class.
 * COPY loads a CSV file (RFC 4180; an empty unquoted field is NULL) all at once or not at all;
 * see {@link io.numacol.database.Appender#appendCsv}. A relative file name is resolved against
 * the JVM's working directory. CALL dbgen creates the eight TPC-H tables and loads them with
 * the built-in generator ({@link io.numacol.tpch.TpchLoader}).
 * Identifiers are plain or double-quoted; a table, view or index name may be qualified by its
 * schema ({@code schema.name}), else it is in the session's schema. Types are those of {@link ColumnType#parse}, plus
 * VARCHAR/TEXT without a length (unbounded). A primary key makes its columns NOT NULL; PRIMARY KEY,
 * UNIQUE and CHECK constraints (named by CONSTRAINT name, else as PostgreSQL names them) are
 * enforced; a CHECK's expression is kept as written, and read when the table is created
 * ({@code io.numacol.calcite.plan.CheckConstraints}). An index is recorded, not built ({@link io.numacol.storage.IndexDef}
 * says why), and dropped with its table.
 */
final class DdlParser {
    /** VARCHAR without a length: as long as a string in one dictionary can be. */
    static final int UNBOUNDED_VARCHAR = Integer.MAX_VALUE;

    private final List<String> tokens;
    /** The text the tokens were read from and where each starts in it, or null where no text is taken whole (a CHECK's). */
    private final String sql;
    private final List<Integer> starts;
    private int pos;
    /** The CHECK constraints the statement gives, as written, in order (a column's among them). */
    private final List<Check> checks = new ArrayList<>();

    private DdlParser(List<String> tokens) {
        this(tokens, null, null);
    }

    private DdlParser(List<String> tokens, String sql, List<Integer> starts) {
        this.tokens = tokens;
        this.sql = sql;
        this.starts = starts;
    }

    /** A CHECK constraint as written: its name (null: named as PostgreSQL names it) and its expression's text. */
    record Check(String name, String expression) {
    }

    /** A DEFAULT as written: a literal value's text (null for NULL), or the text of an expression. */
    private record Default(String text, boolean expression) {
    }

    /** The statement, or null when {@code sql} is not numacol DDL (Calcite parses it then). */
    static DdlStatement parse(String sql) {
        List<Integer> starts = new ArrayList<>();
        List<String> tokens = tokenize(sql, starts);
        if (tokens.size() < 2) {
            return null;
        }
        String first = tokens.get(0).toUpperCase(Locale.ROOT);
        String second = tokens.get(1).toUpperCase(Locale.ROOT);
        if (first.equals("CREATE") && (second.equals("VIEW") || (second.equals("OR") && tokens.size() > 3
                && tokens.get(2).equalsIgnoreCase("REPLACE") && tokens.get(3).equalsIgnoreCase("VIEW")))) {
            return createView(sql);
        }
        if (first.equals("CREATE") && second.equals("TABLE")) {
            Matcher m = CREATE_TABLE_AS.matcher(trimmedEnd(sql));
            if (m.matches()) {
                return new DdlStatement.CreateTableAs(qualifiedName(m.group(2), "a table name"), m.group(1) != null, m.group(3));
            }
        }
        if ((first.equals("SET") && second.equals("SCHEMA")) || first.equals("USE")) {
            DdlParser p = new DdlParser(tokens, sql, starts);
            p.pos = first.equals("USE") ? 1 : 2;
            if (!first.equals("USE") && !p.accept("=")) {
                p.accept("TO");
            }
            DdlStatement s = new DdlStatement.SetSchema(p.pos < tokens.size() && tokens.get(p.pos).startsWith("'")
                    ? p.string("a schema name") : p.identifier("a schema name"));
            p.expectEnd();
            return s;
        }
        if ((first.equals("CREATE") || first.equals("DROP")) && second.equals("SCHEMA")) {
            DdlParser p = new DdlParser(tokens, sql, starts);
            p.pos = 2;
            DdlStatement s = first.equals("CREATE") ? p.createSchema() : p.dropSchema();
            p.expectEnd();
            return s;
        }
        if (first.equals("ALTER") && second.equals("TABLE")) {
            DdlParser p = new DdlParser(tokens, sql, starts);
            p.pos = 2;
            DdlStatement s = p.alterTable();
            p.expectEnd();
            return s;
        }
        if (first.equals("TRUNCATE")) {
            DdlParser p = new DdlParser(tokens, sql, starts);
            p.pos = second.equals("TABLE") ? 2 : 1;
            DdlStatement s = new DdlStatement.Truncate(p.name("a table name"));
            p.expectEnd();
            return s;
        }
        if ((first.equals("CREATE") || first.equals("DROP")) && second.equals("SEQUENCE")) {
            DdlParser p = new DdlParser(tokens, sql, starts);
            p.pos = 2;
            DdlStatement s = first.equals("CREATE") ? p.createSequence() : p.dropSequence();
            p.expectEnd();
            return s;
        }
        if (first.equals("DROP") && second.equals("VIEW")) {
            DdlParser p = new DdlParser(tokens, sql, starts);
            p.pos = 2;
            DdlStatement s = p.dropView();
            p.expectEnd();
            return s;
        }
        if (first.equals("COMMENT") && second.equals("ON")) {
            DdlParser p = new DdlParser(tokens, sql, starts);
            p.pos = 2;
            DdlStatement s = p.comment();
            p.expectEnd();
            return s;
        }
        boolean copy = first.equals("COPY");
        boolean dbgen = first.equals("CALL") && second.equals("DBGEN");
        boolean create = first.equals("CREATE");
        boolean unique = create && second.equals("UNIQUE") && tokens.size() > 2
                && tokens.get(2).equalsIgnoreCase("INDEX");
        boolean index = ((create || first.equals("DROP")) && second.equals("INDEX")) || unique;
        if (!copy && !dbgen && !index && (!(create || first.equals("DROP")) || !second.equals("TABLE"))) {
            return null;
        }
        DdlParser p = new DdlParser(tokens, sql, starts);
        p.pos = copy ? 1 : unique ? 3 : 2;
        DdlStatement s = copy ? p.copy() : dbgen ? p.dbgen()
                : index ? (create ? p.createIndex(unique) : p.dropIndex())
                : create ? p.createTable() : p.dropTable();
        p.expectEnd();
        return s;
    }

    private void expectEnd() {
        if (pos < tokens.size() && !(pos == tokens.size() - 1 && tokens.get(pos).equals(";"))) {
            throw error("unexpected '" + tokens.get(pos) + "' after the statement");
        }
    }

    /** An identifier, plain or double-quoted, optionally qualified by another. */
    private static final String QUALIFIED_NAME = "((?:\"(?:[^\"]|\"\")+\"|[\\p{L}_][\\p{L}\\p{N}_]*)"
            + "(?:\\s*\\.\\s*(?:\"(?:[^\"]|\"\")+\"|[\\p{L}_][\\p{L}\\p{N}_]*))?)";

    private static final Pattern CREATE_VIEW = Pattern.compile(
            "(?is)\\s*CREATE\\s+(OR\\s+REPLACE\\s+)?VIEW\\s+" + QUALIFIED_NAME
                    + "\\s*(?:\\(([^)]*)\\))?\\s*AS\\s+(.+)");

    private static final Pattern CREATE_TABLE_AS = Pattern.compile(
            "(?is)\\s*CREATE\\s+TABLE\\s+(IF\\s+NOT\\s+EXISTS\\s+)?" + QUALIFIED_NAME + "\\s+AS\\s+(.+)");

    /**
     * {@code sql} without the white space and semicolons it ends with, cut off before matching:
     * a lazy query group followed by {@code [\\s;]*} tried every end and took 25 s over 40,000
     * spaces.
     */
    private static String trimmedEnd(String sql) {
        int end = sql.length();
        while (end > 0 && (Character.isWhitespace(sql.charAt(end - 1)) || sql.charAt(end - 1) == ';')) {
            end--;
        }
        return sql.substring(0, end);
    }

    /** The name {@link #QUALIFIED_NAME} matched. */
    private static DdlStatement.Name qualifiedName(String text, String what) {
        DdlParser p = new DdlParser(tokenize(text));
        DdlStatement.Name name = p.name(what);
        p.expectEnd();
        return name;
    }

    /** CREATE [OR REPLACE] VIEW name [(column, ...)] AS query: the query is kept as written. */
    private static DdlStatement createView(String sql) {
        Matcher m = CREATE_VIEW.matcher(trimmedEnd(sql));
        if (!m.matches()) {
            throw new IllegalArgumentException("expected CREATE [OR REPLACE] VIEW name [(column, ...)] AS query");
        }
        DdlStatement.Name name = qualifiedName(m.group(2), "a view name");
        List<String> columns = new ArrayList<>();
        if (m.group(3) != null) {
            DdlParser p = new DdlParser(tokenize(m.group(3)));
            do {
                columns.add(p.identifier("a column name"));
            } while (p.accept(","));
            p.expectEnd();
        }
        return new DdlStatement.CreateView(name, m.group(4), columns, m.group(1) != null);
    }

    private DdlStatement createTable() {
        boolean ifNotExists = ifNotExists();
        DdlStatement.Name name = name("a table name");
        expect("(");
        List<ColumnDef> columns = new ArrayList<>();
        Keys keys = new Keys();
        do {
            String constraint = accept("CONSTRAINT") ? identifier("a constraint name") : null;
            if (accept("PRIMARY")) {
                expect("KEY");
                keys.primary(constraint, columnList());
                continue;
            }
            if (accept("UNIQUE")) {
                keys.unique(constraint, columnList());
                continue;
            }
            if (accept("CHECK")) {
                checks.add(new Check(constraint, checkExpression()));
                continue;
            }
            if (accept("FOREIGN")) {
                expect("KEY");
                List<String> referencing = columnList();
                expect("REFERENCES");
                keys.references.add(references(constraint, referencing));
                continue;
            }
            if (constraint != null) {
                throw error("CONSTRAINT " + constraint + " must name a PRIMARY KEY, UNIQUE, FOREIGN KEY or CHECK constraint");
            }
            columns.add(column(keys));
        } while (accept(","));
        expect(")");
        Placement placement = accept("PLACEMENT") ? placement() : null;
        List<ColumnDef> keyed = new ArrayList<>();
        Set<String> primary = new HashSet<>();
        keys.primaryColumns.forEach(c -> primary.add(c.toUpperCase(Locale.ROOT)));
        for (ColumnDef c : columns) {
            boolean key = primary.remove(c.name().toUpperCase(Locale.ROOT));
            keyed.add(key ? c.withNullable(false) : c); // a primary key's columns are NOT NULL
        }
        if (!primary.isEmpty()) {
            throw error("PRIMARY KEY names " + primary + ", which " + (primary.size() == 1 ? "is" : "are")
                    + " not a column of " + name);
        }
        try {
            TableSchema plain = new TableSchema(keyed);
            TableSchema keyedSchema = new TableSchema(keyed, keys.defs(name.name(), plain));
            return new DdlStatement.CreateTable(name, ifNotExists, keyedSchema.withChecks(checkDefs(name.name(), keyedSchema, checks)),
                    placement, keys.references);
        } catch (IllegalArgumentException e) {
            throw error(e.getMessage());
        }
    }

    /** ( expression ), after CHECK: the expression's text as written (its parentheses balance). */
    private String checkExpression() {
        expect("(");
        int first = pos;
        int depth = 0;
        while (pos < tokens.size() && !(depth == 0 && tokens.get(pos).equals(")"))) {
            depth += tokens.get(pos).equals("(") ? 1 : tokens.get(pos).equals(")") ? -1 : 0;
            pos++;
        }
        if (pos >= tokens.size()) {
            throw error("expected ')' to close CHECK (" + (pos > first ? "..." : ""));
        }
        if (pos == first) {
            throw error("CHECK needs an expression in its parentheses");
        }
        if (sql == null) {
            throw new IllegalStateException("a CHECK is read from the statement's text");
        }
        int last = pos - 1;
        String text = sql.substring(starts.get(first), starts.get(last) + tokens.get(last).length());
        pos++; // the ')'
        return text;
    }

    /**
     * {@code checks} of a table named {@code table} whose other constraints {@code schema} holds,
     * each unnamed one named as PostgreSQL names it: {@code table_column_check} when it reads one
     * column, {@code table_check} otherwise, with 1, 2, ... after it when that is taken (by a
     * constraint of the table, a name the statement gives, or a name chosen before). A name given
     * that a constraint of {@code schema} has is refused.
     */
    static List<TableSchema.CheckDef> checkDefs(String table, TableSchema schema, List<Check> checks) {
        for (Check c : checks) {
            if (c.name() != null && DdlStatement.hasConstraint(schema, c.name())) {
                throw new IllegalArgumentException("constraint \"" + c.name() + "\" for relation \"" + table + "\" already exists");
            }
        }
        Set<String> taken = new HashSet<>();
        schema.keys().stream().map(TableSchema.KeyDef::name).filter(Objects::nonNull).forEach(n -> taken.add(n.toUpperCase(Locale.ROOT)));
        schema.checks().forEach(c -> taken.add(c.name().toUpperCase(Locale.ROOT)));
        checks.stream().map(Check::name).filter(Objects::nonNull).forEach(n -> taken.add(n.toUpperCase(Locale.ROOT)));
        List<TableSchema.CheckDef> defs = new ArrayList<>();
        for (Check c : checks) {
            String name = c.name();
            if (name == null) {
                List<String> read = CheckExpressions.columns(c.expression(), schema);
                String base = table + (read.size() == 1 ? "_" + read.getFirst() : "") + "_check";
                name = base;
                for (int n = 1; taken.contains(name.toUpperCase(Locale.ROOT)); n++) {
                    name = base + n;
                }
                taken.add(name.toUpperCase(Locale.ROOT));
            }
            defs.add(new TableSchema.CheckDef(name, c.expression()));
        }
        return defs;
    }

    /** ( column, ... ) */
    private List<String> columnList() {
        expect("(");
        List<String> names = new ArrayList<>();
        do {
            names.add(identifier("a column name"));
        } while (accept(","));
        expect(")");
        return names;
    }

    /** The PRIMARY KEY and UNIQUE constraints of a CREATE TABLE, as written. */
    private final class Keys {
        String primaryName;
        final List<String> primaryColumns = new ArrayList<>();
        final List<String> uniqueNames = new ArrayList<>();
        final List<List<String>> uniqueColumns = new ArrayList<>();
        /** FOREIGN KEY and REFERENCES clauses, resolved when the statement runs. */
        final List<ForeignKeySpec> references = new ArrayList<>();

        void primary(String constraint, List<String> columns) {
            if (!primaryColumns.isEmpty()) {
                throw error("a table has at most one PRIMARY KEY");
            }
            primaryName = constraint;
            primaryColumns.addAll(columns);
        }

        void unique(String constraint, List<String> columns) {
            uniqueNames.add(constraint);
            uniqueColumns.add(columns);
        }

        /** The keys by column position, named as PostgreSQL names them when the statement does not: t_pkey, t_c_key. */
        List<TableSchema.KeyDef> defs(String table, TableSchema schema) {
            List<TableSchema.KeyDef> defs = new ArrayList<>();
            if (!primaryColumns.isEmpty()) {
                defs.add(new TableSchema.KeyDef(primaryName != null ? primaryName : table + "_pkey",
                        positions(schema, primaryColumns, "PRIMARY KEY", table), true));
            }
            for (int i = 0; i < uniqueColumns.size(); i++) {
                List<String> columns = uniqueColumns.get(i);
                String keyName = uniqueNames.get(i) != null ? uniqueNames.get(i) : table + "_" + String.join("_", columns) + "_key";
                defs.add(new TableSchema.KeyDef(keyName, positions(schema, columns, "UNIQUE", table), false));
            }
            return defs;
        }

        private List<Integer> positions(TableSchema schema, List<String> columns, String what, String table) {
            List<Integer> at = new ArrayList<>();
            for (String c : columns) {
                int i = schema.indexOf(c);
                if (i < 0) {
                    throw error(what + " names " + c + ", which is not a column of " + table);
                }
                at.add(i);
            }
            return at;
        }
    }

    private ColumnDef column(Keys keys) {
        String name = identifier("a column name");
        StringBuilder type = new StringBuilder();
        int depth = 0;
        while (pos < tokens.size()) {
            String t = tokens.get(pos);
            String u = t.toUpperCase(Locale.ROOT);
            if (depth == 0 && (t.equals(",") || t.equals(")") || u.equals("NOT") || u.equals("NULL")
                    || u.equals("PRIMARY") || u.equals("UNIQUE") || u.equals("DEFAULT") || u.equals("CONSTRAINT") || u.equals("CHECK")
                    || u.equals("REFERENCES")
                    || u.equals("GENERATED") || u.equals("AUTO_INCREMENT") || u.equals("AUTOINCREMENT"))) {
                break;
            }
            depth += t.equals("(") ? 1 : t.equals(")") ? -1 : 0;
            type.append(type.isEmpty() || t.equals("(") || t.equals(")") || t.equals(",")
                    || type.toString().endsWith("(") || type.toString().endsWith(",") ? "" : " ").append(t);
            pos++;
        }
        if (type.isEmpty()) {
            throw error("column " + name + " needs a type");
        }
        boolean nullable = true;
        String defaultText = null;
        boolean defaultExpression = false;
        String typeText = type.toString();
        String serial = switch (typeText.toUpperCase(Locale.ROOT)) {
            case "SERIAL", "SERIAL4" -> "INTEGER";
            case "BIGSERIAL", "SERIAL8" -> "BIGINT";
            case "SMALLSERIAL", "SERIAL2" -> "SMALLINT";
            default -> null;
        };
        Boolean always = serial == null ? null : false;
        long[] startAndIncrement = {1, 1};
        while (true) {
            String constraint = accept("CONSTRAINT") ? identifier("a constraint name") : null;
            if (accept("DEFAULT")) {
                Default given = defaultClause();
                defaultText = given.text();
                defaultExpression = given.expression();
            } else if (accept("GENERATED")) {
                if (accept("ALWAYS")) {
                    always = true;
                } else {
                    expect("BY");
                    expect("DEFAULT");
                    always = false;
                }
                expect("AS");
                expect("IDENTITY");
                if (accept("(")) {
                    while (!accept(")")) {
                        if (accept("START")) {
                            accept("WITH");
                            startAndIncrement[0] = wholeNumber("START WITH");
                        } else if (accept("INCREMENT")) {
                            accept("BY");
                            startAndIncrement[1] = wholeNumber("INCREMENT BY");
                        } else {
                            throw error("expected START WITH n or INCREMENT BY n in an identity's options");
                        }
                    }
                }
            } else if (accept("AUTO_INCREMENT") || accept("AUTOINCREMENT")) {
                always = false;
            } else if (accept("NOT")) {
                expect("NULL");
                nullable = false;
            } else if (accept("NULL")) {
                nullable = true;
            } else if (accept("PRIMARY")) {
                expect("KEY");
                keys.primary(constraint, List.of(name));
            } else if (accept("UNIQUE")) {
                keys.unique(constraint, List.of(name));
            } else if (accept("CHECK")) {
                checks.add(new Check(constraint, checkExpression()));
            } else if (accept("REFERENCES")) {
                keys.references.add(references(constraint, List.of(name)));
            } else if (constraint != null) {
                throw error("CONSTRAINT " + constraint + " must name NOT NULL, PRIMARY KEY, UNIQUE, REFERENCES or CHECK");
            } else {
                break;
            }
        }
        ColumnType columnType = columnType(name, serial != null ? serial : typeText);
        if (always == null) {
            if (defaultText != null && !defaultExpression) {
                try {
                    defaultValue(new ColumnDef(name, columnType, true), defaultText, ZoneOffset.UTC);
                } catch (IllegalArgumentException e) {
                    throw error("DEFAULT of " + e.getMessage());
                }
            }
            return new ColumnDef(name, columnType, nullable, defaultText, null, defaultExpression);
        }
        if (!(columnType.codec() instanceof io.numacol.storage.types.IntegralCodec)) {
            throw error("identity column " + name + " must be SMALLINT, INTEGER or BIGINT, not " + columnType);
        }
        if (defaultText != null) {
            throw error("identity column " + name + " takes no DEFAULT");
        }
        return new ColumnDef(name, columnType, false, null,
                new TableSchema.Identity(always, new Sequence(startAndIncrement[0], startAndIncrement[1])));
    }

    /**
     * After DEFAULT: a literal value as {@link #literal()} reads it, as before, or else a SQL
     * expression up to the column's next clause, whose form is checked here (no column, subquery,
     * aggregate or parameter); its type is checked against the column's when the statement runs.
     */
    private Default defaultClause() {
        int first = pos;
        int depth = 0;
        while (pos < tokens.size()) {
            String t = tokens.get(pos);
            String u = t.toUpperCase(Locale.ROOT);
            String before = pos > first ? tokens.get(pos - 1).toUpperCase(Locale.ROOT) : "";
            boolean next = depth == 0 && pos > first && (t.equals(",") || t.equals(")") || t.equals(";")
                    || (u.equals("NOT") && pos + 1 < tokens.size() && tokens.get(pos + 1).equalsIgnoreCase("NULL") && !before.equals("IS"))
                    || (u.equals("NULL") && !before.equals("IS") && !before.equals("NOT"))
                    || Set.of("PRIMARY", "UNIQUE", "CONSTRAINT", "CHECK", "REFERENCES", "GENERATED", "DEFAULT", "AUTO_INCREMENT",
                    "AUTOINCREMENT").contains(u));
            if (next || (depth == 0 && t.equals(")"))) {
                break;
            }
            depth += t.equals("(") ? 1 : t.equals(")") ? -1 : 0;
            pos++;
        }
        int end = pos;
        if (end == first) {
            throw error("DEFAULT needs a value or an expression");
        }
        pos = first;
        try {
            String value = literal();
            if (pos == end) {
                return new Default(value, false);
            }
        } catch (RuntimeException notALiteral) {
            // an expression, read below
        }
        if (sql == null) {
            throw new IllegalStateException("a DEFAULT expression is read from the statement's text");
        }
        String text = sql.substring(starts.get(first), starts.get(end - 1) + tokens.get(end - 1).length());
        pos = end;
        DefaultExpressions.Refusal refusal = DefaultExpressions.refusal(DefaultExpressions.parse(text));
        if (refusal != null) {
            throw new DdlException(refusal.sqlState(), refusal.message());
        }
        return new Default(text, true);
    }

    /** A whole number, maybe signed, for {@code what}. */
    private long wholeNumber(String what) {
        String text = literal();
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw error(what + " needs a whole number, not " + text);
        }
    }

    /**
     * After ALTER TABLE: [IF EXISTS] name, then ADD [COLUMN] [IF NOT EXISTS] column type [NOT NULL]
     * [DEFAULT literal] [CHECK (expression)], ADD [CONSTRAINT name] PRIMARY KEY (column, ...) |
     * UNIQUE (column, ...) | FOREIGN KEY ... | CHECK (expression), DROP CONSTRAINT [IF EXISTS] name
     * [CASCADE | RESTRICT], DROP [COLUMN] [IF EXISTS] column, RENAME TO name, RENAME [COLUMN] name
     * TO name, ALTER [COLUMN] column ... ({@link #alterColumn}) or SET PLACEMENT.
     */
    private DdlStatement alterTable() {
        boolean ifExists = ifExists();
        DdlStatement.Name table = name("a table name");
        if (accept("ADD")) {
            int at = pos;
            String constraint = accept("CONSTRAINT") ? identifier("a constraint name") : null;
            if (accept("FOREIGN")) {
                expect("KEY");
                List<String> referencing = columnList();
                expect("REFERENCES");
                return new DdlStatement.AlterTable(table, ifExists,
                        new DdlStatement.AlterTable.AddForeignKey(references(constraint, referencing)));
            }
            if (accept("CHECK")) {
                return new DdlStatement.AlterTable(table, ifExists, new DdlStatement.AlterTable.AddCheck(constraint, checkExpression()));
            }
            if (accept("PRIMARY")) {
                expect("KEY");
                return new DdlStatement.AlterTable(table, ifExists, new DdlStatement.AlterTable.AddKey(constraint, columnList(), true));
            }
            if (accept("UNIQUE")) {
                return new DdlStatement.AlterTable(table, ifExists, new DdlStatement.AlterTable.AddKey(constraint, columnList(), false));
            }
            if (constraint != null) {
                throw error("ALTER TABLE ... ADD CONSTRAINT " + constraint + " takes a PRIMARY KEY, UNIQUE, FOREIGN KEY or CHECK (expression)");
            }
            pos = at;
            accept("COLUMN");
            boolean ifNotExists = ifNotExists();
            Keys keys = new Keys();
            ColumnDef column = column(keys);
            if (!keys.primaryColumns.isEmpty() || !keys.uniqueColumns.isEmpty() || !keys.references.isEmpty()) {
                throw error("ALTER TABLE ... ADD COLUMN takes no PRIMARY KEY, UNIQUE or REFERENCES: add the column, then "
                        + "ALTER TABLE ... ADD FOREIGN KEY, or create the table with it");
            }
            if (column.identity() != null) {
                throw error("ALTER TABLE ... ADD COLUMN takes no identity column: create the table with it");
            }
            boolean nullable = column.nullable();
            String defaultValue = column.defaultText();
            boolean defaultExpression = column.defaultExpression();
            while (pos < tokens.size() && !tokens.get(pos).equals(";")) {
                if (accept("DEFAULT")) {
                    Default given = defaultClause();
                    defaultValue = given.text();
                    defaultExpression = given.expression();
                } else if (accept("NOT")) {
                    expect("NULL");
                    nullable = false;
                } else if (accept("NULL")) {
                    nullable = true;
                } else {
                    break;
                }
            }
            return new DdlStatement.AlterTable(table, ifExists, new DdlStatement.AlterTable.AddColumn(
                    new ColumnDef(column.name(), column.type(), nullable, defaultValue, null, defaultExpression),
                    defaultExpression ? null : defaultValue, ifNotExists, checks));
        }
        if (accept("DROP")) {
            if (pos + 1 < tokens.size() && tokens.get(pos).equalsIgnoreCase("CONSTRAINT") && !tokens.get(pos + 1).equals(";")) {
                pos++;
                boolean ifConstraintExists = ifExists();
                String constraint = identifier("a constraint name");
                boolean cascade = accept("CASCADE");
                if (!cascade) {
                    accept("RESTRICT");
                }
                return new DdlStatement.AlterTable(table, ifExists,
                        new DdlStatement.AlterTable.DropConstraint(constraint, ifConstraintExists, cascade));
            }
            accept("COLUMN");
            boolean ifColumnExists = ifExists();
            return new DdlStatement.AlterTable(table, ifExists,
                    new DdlStatement.AlterTable.DropColumn(identifier("a column name"), ifColumnExists));
        }
        if (accept("RENAME")) {
            if (accept("TO")) {
                return new DdlStatement.AlterTable(table, ifExists, new DdlStatement.AlterTable.RenameTable(name("a table name")));
            }
            accept("COLUMN");
            String from = identifier("a column name");
            expect("TO");
            return new DdlStatement.AlterTable(table, ifExists,
                    new DdlStatement.AlterTable.RenameColumn(from, identifier("a column name")));
        }
        if (accept("SET")) {
            expect("PLACEMENT");
            return new DdlStatement.AlterTable(table, ifExists, new DdlStatement.AlterTable.SetPlacement(placement()));
        }
        if (accept("ALTER")) {
            accept("COLUMN");
            return new DdlStatement.AlterTable(table, ifExists, alterColumn());
        }
        throw error("expected ADD, DROP, RENAME, ALTER [COLUMN] or SET PLACEMENT after ALTER TABLE " + table);
    }

    /**
     * After ALTER TABLE name ALTER [COLUMN]: column SET NOT NULL, DROP NOT NULL, SET DEFAULT
     * literal, DROP DEFAULT or [SET DATA] TYPE type.
     */
    private DdlStatement.AlterTable.Action alterColumn() {
        String column = identifier("a column name");
        if (accept("SET")) {
            if (accept("NOT")) {
                expect("NULL");
                return new DdlStatement.AlterTable.SetNotNull(column, true);
            }
            if (accept("DEFAULT")) {
                Default given = defaultClause();
                return new DdlStatement.AlterTable.SetDefault(column, given.text(), given.expression(), false);
            }
            expect("DATA");
            expect("TYPE");
            return new DdlStatement.AlterTable.SetType(column, columnType(column, typeText()));
        }
        if (accept("DROP")) {
            if (accept("NOT")) {
                expect("NULL");
                return new DdlStatement.AlterTable.SetNotNull(column, false);
            }
            expect("DEFAULT");
            return new DdlStatement.AlterTable.SetDefault(column, null, false, true);
        }
        if (accept("TYPE")) {
            return new DdlStatement.AlterTable.SetType(column, columnType(column, typeText()));
        }
        throw error("expected SET NOT NULL, DROP NOT NULL, SET DEFAULT value, DROP DEFAULT or [SET DATA] TYPE type after ALTER COLUMN "
                + column);
    }

    /** The rest of the statement as a type's words, joined as {@link #column} joins them. */
    private String typeText() {
        StringBuilder type = new StringBuilder();
        while (pos < tokens.size() && !tokens.get(pos).equals(";")) {
            String t = tokens.get(pos++);
            if (t.equalsIgnoreCase("USING") || t.equalsIgnoreCase("COLLATE")) {
                throw new DdlException("0A000", "ALTER COLUMN ... TYPE takes no " + t.toUpperCase(Locale.ROOT)
                        + ": stored values are cast to the new type as CAST(value AS type) would cast them");
            }
            type.append(type.isEmpty() || t.equals("(") || t.equals(")") || t.equals(",")
                    || type.toString().endsWith("(") || type.toString().endsWith(",") ? "" : " ").append(t);
        }
        if (type.isEmpty()) {
            throw error("expected a type after TYPE");
        }
        return type.toString();
    }

    /**
     * The value a DEFAULT's {@code text} gives {@code column} (null for NULL), checked as a stored
     * value is (its length, its range), so that a DEFAULT that could never be stored is refused
     * when it is declared rather than by each INSERT that takes it.
     *
     * @throws IllegalArgumentException naming the column when the value does not fit its type
     */
    static Object defaultValue(ColumnDef column, String text, ZoneId zone) {
        Object value = Appender.valueOfText(column, text, zone);
        if (value != null) {
            ColumnType type = column.type();
            try {
                switch (type.storageKind()) {
                    case LONG -> type.toLong(value, zone);
                    case DOUBLE -> type.toDouble(value);
                    case STRING -> type.toStringValue(value);
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(column.name() + ": " + e.getMessage(), e);
            }
        }
        return value;
    }

    /**
     * After PLACEMENT: RR, IVP, INTERLEAVED, NODE(k), PP(n) BY HASH (col, ...), PP(n) BY RANGE
     * (col), PP(n) ROUND ROBIN, or DEFAULT (null: each part on a node, the nodes in turn). The
     * spec is the rest of the statement.
     */
    private Placement placement() {
        StringBuilder spec = new StringBuilder();
        while (pos < tokens.size() && !tokens.get(pos).equals(";")) {
            spec.append(tokens.get(pos++));
        }
        String s = spec.toString().toUpperCase(Locale.ROOT);
        if (s.equals("DEFAULT")) {
            return null;
        }
        if (s.isEmpty()) {
            throw error("expected a placement after PLACEMENT: RR, IVP, INTERLEAVED, NODE(k), PP(n) ... or DEFAULT");
        }
        try {
            return Placement.parse(spec.toString());
        } catch (IllegalArgumentException e) {
            throw error(e.getMessage().replace("INTERLEAVED, NODE(k)", "INTERLEAVED, NODE(k), DEFAULT"));
        }
    }

    /**
     * A literal as its text: 'quoted' (unquoted), a number with its sign, TRUE, FALSE, NULL, DATE
     * 'yyyy-mm-dd', TIMESTAMP 'yyyy-mm-dd hh:mm:ss[.fff]', TIMESTAMP WITH TIME ZONE (or TIMESTAMPTZ)
     * 'yyyy-mm-dd hh:mm:ss[.fff][offset]', TIME 'hh:mm:ss[.fff]', UUID '..', or
     * X'0102ff' (as \x0102ff, the text a VARBINARY is read from); null for NULL.
     */
    private String literal() {
        if (accept("NULL")) {
            return null;
        }
        if (pos + 1 < tokens.size() && tokens.get(pos).equalsIgnoreCase("X") && tokens.get(pos + 1).startsWith("'")) {
            pos++;
            String hex = tokens.get(pos++);
            return "\\x" + hex.substring(1, hex.length() - 1); // the text COPY reads a VARBINARY from
        }
        if (accept("TIMESTAMP")) {
            if (accept("WITH")) {
                accept("LOCAL");
                if (!accept("TIME") || !accept("ZONE")) {
                    throw error("expected TIMESTAMP WITH TIME ZONE '...'");
                }
            }
        } else if (!accept("DATE") && !accept("TIME") && !accept("TIMESTAMPTZ")) {
            accept("UUID");
        }
        String sign = accept("-") ? "-" : "";
        if (sign.isEmpty()) {
            accept("+"); // a plus sign says nothing
        }
        if (pos >= tokens.size()) {
            throw error("expected a literal value");
        }
        String t = tokens.get(pos++);
        if (t.startsWith("'")) {
            return t.substring(1, t.length() - 1).replace("''", "'");
        }
        if (!Character.isDigit(t.charAt(0)) && t.charAt(0) != '.' && !t.equalsIgnoreCase("TRUE") && !t.equalsIgnoreCase("FALSE")) {
            throw error("expected a literal value, not '" + t + "'");
        }
        return sign + t;
    }

    private ColumnType columnType(String column, String spec) {
        String u = spec.toUpperCase(Locale.ROOT);
        if (u.equals("VARCHAR") || u.equals("TEXT") || u.equals("STRING") || u.equals("CHARACTER VARYING")) {
            return ColumnType.varchar(UNBOUNDED_VARCHAR);
        }
        if (u.equals("VARBINARY") || u.equals("BLOB") || u.equals("BYTEA") || u.matches("BINARY\\s+VARYING")) {
            return ColumnType.varbinary(UNBOUNDED_VARCHAR);
        }
        try {
            return ColumnType.parse(spec);
        } catch (IllegalArgumentException e) {
            throw error("column " + column + ": " + e.getMessage());
        }
    }

    private DdlStatement dropTable() {
        boolean ifExists = ifExists();
        DdlStatement.Name name = name("a table name");
        boolean cascade = accept("CASCADE");
        if (!cascade) {
            accept("RESTRICT");
        }
        return new DdlStatement.DropTable(name, ifExists, cascade);
    }

    /**
     * After REFERENCES: parent [(column, ...)] [MATCH SIMPLE] [ON DELETE action] [ON UPDATE
     * action], each action NO ACTION (the default), RESTRICT, CASCADE, SET NULL or SET DEFAULT
     * ({@link ForeignKeySpec}), each event at most once; PostgreSQL's NOT DEFERRABLE and INITIALLY
     * IMMEDIATE say what numacol does, and are taken too.
     */
    private ForeignKeySpec references(String constraint, List<String> columns) {
        DdlStatement.Name parent = name("a table name");
        List<String> parentColumns = pos < tokens.size() && tokens.get(pos).equals("(") ? columnList() : List.of();
        TableSchema.ReferentialAction onDelete = null;
        TableSchema.ReferentialAction onUpdate = null;
        while (true) {
            if (accept("MATCH")) {
                if (!accept("SIMPLE")) {
                    throw new DdlException("0A000", "only MATCH SIMPLE is supported: a row with a NULL in its foreign key "
                            + "references nothing");
                }
            } else if (accept("ON")) {
                String event = accept("DELETE") ? "DELETE" : accept("UPDATE") ? "UPDATE" : null;
                if (event == null) {
                    throw error("expected DELETE or UPDATE after ON in a REFERENCES clause");
                }
                if (event.equals("DELETE") ? onDelete != null : onUpdate != null) {
                    throw error("ON " + event + " is given twice in one REFERENCES clause");
                }
                TableSchema.ReferentialAction action = referentialAction(event);
                if (event.equals("DELETE")) {
                    onDelete = action;
                } else {
                    onUpdate = action;
                }
            } else if (accept("NOT")) {
                expect("DEFERRABLE");
            } else if (accept("INITIALLY")) {
                expect("IMMEDIATE");
            } else if (pos < tokens.size() && tokens.get(pos).equalsIgnoreCase("DEFERRABLE")) {
                throw new DdlException("0A000", "DEFERRABLE foreign keys are not supported: numacol checks them at the end of "
                        + "each statement");
            } else {
                break;
            }
        }
        return new ForeignKeySpec(constraint, columns, parent, parentColumns,
                onDelete == null ? TableSchema.ReferentialAction.NO_ACTION : onDelete,
                onUpdate == null ? TableSchema.ReferentialAction.NO_ACTION : onUpdate);
    }

    /** The action after ON DELETE or ON UPDATE ({@code event}): NO ACTION, RESTRICT, CASCADE, SET NULL or SET DEFAULT. */
    private TableSchema.ReferentialAction referentialAction(String event) {
        if (accept("NO")) {
            expect("ACTION");
            return TableSchema.ReferentialAction.NO_ACTION;
        }
        if (accept("RESTRICT")) {
            return TableSchema.ReferentialAction.RESTRICT;
        }
        if (accept("CASCADE")) {
            return TableSchema.ReferentialAction.CASCADE;
        }
        if (accept("SET")) {
            TableSchema.ReferentialAction set = accept("NULL") ? TableSchema.ReferentialAction.SET_NULL
                    : accept("DEFAULT") ? TableSchema.ReferentialAction.SET_DEFAULT : null;
            if (set != null && pos < tokens.size() && tokens.get(pos).equals("(")) {
                throw new DdlException("0A000", "ON " + event + " " + set.sql() + " with a column list is not supported: "
                        + "the action sets every column of the foreign key");
            }
            if (set != null) {
                return set;
            }
        }
        throw error("expected NO ACTION, RESTRICT, CASCADE, SET NULL or SET DEFAULT after ON " + event);
    }

    /** DROP VIEW [IF EXISTS] name [CASCADE | RESTRICT], after VIEW. */
    private DdlStatement dropView() {
        boolean ifExists = ifExists();
        DdlStatement.Name name = name("a view name");
        dropBehavior();
        return new DdlStatement.DropView(name, ifExists);
    }

    /** CREATE SEQUENCE's name and options, after SEQUENCE, in any order as PostgreSQL takes them, each at most once. */
    private DdlStatement createSequence() {
        boolean ifNotExists = ifNotExists();
        DdlStatement.Name name = name("a sequence name");
        String type = "BIGINT";
        Long start = null;
        Long increment = null;
        Long min = null;
        Long max = null;
        boolean cycle = false;
        Set<String> seen = new HashSet<>();
        while (pos < tokens.size() && !tokens.get(pos).equals(";")) {
            String option = tokens.get(pos).toUpperCase(Locale.ROOT);
            String no = option.equals("NO") && pos + 1 < tokens.size() ? tokens.get(pos + 1).toUpperCase(Locale.ROOT) : null;
            String key = no != null ? no : option;
            if (!seen.add(key)) {
                throw error("sequence " + name + ": " + key + " is given twice");
            }
            pos += no != null ? 2 : 1;
            switch (no != null ? "NO " + no : option) {
                case "AS" -> type = identifier("SMALLINT, INTEGER or BIGINT").toUpperCase(Locale.ROOT); // checked as it runs
                case "START" -> {
                    accept("WITH");
                    start = sequenceNumber(name, "START");
                }
                case "INCREMENT" -> {
                    accept("BY");
                    increment = sequenceNumber(name, "INCREMENT");
                }
                case "MINVALUE" -> min = sequenceNumber(name, "MINVALUE");
                case "MAXVALUE" -> max = sequenceNumber(name, "MAXVALUE");
                case "CYCLE" -> cycle = true;
                case "NO MINVALUE", "NO MAXVALUE", "NO CYCLE" -> { }
                case "CACHE", "OWNED", "NO OWNED", "RESTART" -> throw error("sequence " + name + ": numacol does not support " + key
                        + " (every number is taken from the one counter; a sequence belongs to no column)");
                default -> throw error("sequence " + name + ": expected AS, START, INCREMENT, MINVALUE, MAXVALUE, NO or CYCLE but found '"
                        + tokens.get(pos - 1) + "'");
            }
        }
        return new DdlStatement.CreateSequence(name, ifNotExists, type, start, increment, min, max, cycle);
    }

    private long sequenceNumber(DdlStatement.Name name, String option) {
        String n = number(option + " value");
        try {
            return Long.parseLong(n);
        } catch (NumberFormatException e) {
            throw error("sequence " + name + ": " + option + " must be a whole number within BIGINT, not " + n);
        }
    }

    /** DROP SEQUENCE [IF EXISTS] name [CASCADE | RESTRICT], after SEQUENCE: nothing depends on a sequence. */
    private DdlStatement dropSequence() {
        boolean ifExists = ifExists();
        DdlStatement.Name name = name("a sequence name");
        dropBehavior();
        return new DdlStatement.DropSequence(name, ifExists);
    }

    /** CREATE SCHEMA [IF NOT EXISTS] name, after SCHEMA. */
    private DdlStatement createSchema() {
        boolean ifNotExists = ifNotExists();
        return new DdlStatement.CreateSchema(identifier("a schema name"), ifNotExists);
    }

    /** DROP SCHEMA [IF EXISTS] name [CASCADE | RESTRICT], after SCHEMA. */
    private DdlStatement dropSchema() {
        boolean ifExists = ifExists();
        String name = identifier("a schema name");
        boolean cascade = accept("CASCADE");
        if (!cascade) {
            accept("RESTRICT");
        }
        return new DdlStatement.DropSchema(name, ifExists, cascade);
    }

    /**
     * CASCADE or RESTRICT, if one comes next: they agree, as nothing depends on a table but its
     * indexes, which go with it, and nothing on a view.
     */
    private void dropBehavior() {
        if (!accept("CASCADE")) {
            accept("RESTRICT");
        }
    }

    private boolean ifExists() {
        boolean ifExists = accept("IF");
        if (ifExists) {
            expect("EXISTS");
        }
        return ifExists;
    }

    private boolean ifNotExists() {
        boolean ifNotExists = accept("IF");
        if (ifNotExists) {
            expect("NOT");
            expect("EXISTS");
        }
        return ifNotExists;
    }

    /** CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table (column [ASC | DESC], ...), after INDEX. */
    private DdlStatement createIndex(boolean unique) {
        boolean ifNotExists = ifNotExists();
        // an index is in its table's schema: a schema written before its name (as H2, HSQLDB and Liquibase write it) names that one
        DdlStatement.Name indexName = name("an index name");
        String name = indexName.name();
        expect("ON");
        DdlStatement.Name table = name("a table name");
        if (indexName.schema() != null) {
            if (table.schema() != null && !table.schema().equalsIgnoreCase(indexName.schema())) {
                throw error("index " + indexName + " would be in schema " + indexName.schema() + ", its table " + table
                        + " is in " + table.schema() + ": an index is in the schema of its table");
            }
            table = new DdlStatement.Name(indexName.schema(), table.name());
        }
        expect("(");
        List<String> columns = new ArrayList<>();
        do {
            columns.add(identifier("a column name"));
            if (!accept("ASC")) {
                accept("DESC");
            }
        } while (accept(","));
        expect(")");
        return new DdlStatement.CreateIndex(name, table, columns, unique, ifNotExists);
    }

    /** COMMENT ON TABLE [schema.]table | COLUMN [schema.]table.column IS 'text' | NULL, after ON. */
    private DdlStatement comment() {
        boolean column = accept("COLUMN");
        if (!column) {
            expect("TABLE");
        }
        List<String> parts = new ArrayList<>();
        do {
            parts.add(identifier(column ? "a table's column, as table.column" : "a table name"));
        } while (accept("."));
        int most = column ? 3 : 2;
        if (parts.size() > most || (column && parts.size() < 2)) {
            throw error(column ? "COMMENT ON COLUMN names a column as table.column or schema.table.column, not " + String.join(".", parts)
                    : "COMMENT ON TABLE names a table as table or schema.table, not " + String.join(".", parts));
        }
        String columnName = column ? parts.removeLast() : null;
        DdlStatement.Name table = parts.size() == 2 ? new DdlStatement.Name(parts.get(0), parts.get(1)) : new DdlStatement.Name(null, parts.get(0));
        expect("IS");
        String text = accept("NULL") ? null : string("the comment in single quotes, or NULL");
        return new DdlStatement.Comment(table, columnName, text);
    }

    /** DROP INDEX [IF EXISTS] name, after INDEX. */
    private DdlStatement dropIndex() {
        boolean ifExists = ifExists();
        return new DdlStatement.DropIndex(name("an index name"), ifExists);
    }

    /** COPY table FROM 'file' [WITH (HEADER true|false, DELIMITER 'c', MAX_LINE_SIZE n)]; options may also come without WITH. */
    private DdlStatement copy() {
        DdlStatement.Name table = name("a table name");
        expect("FROM");
        String file = string("a file name in single quotes");
        CsvFormat format = CsvFormat.defaults();
        boolean with = accept("WITH");
        boolean parenthesized = accept("(");
        if (with && !parenthesized) {
            throw error("expected '(' after WITH");
        }
        while (pos < tokens.size() && !tokens.get(pos).equals(")") && !tokens.get(pos).equals(";")) {
            if (accept("HEADER")) {
                boolean off = accept("false");
                if (!off) {
                    accept("true"); // HEADER alone means true
                }
                format = format.withHeader(!off);
            } else if (accept("DELIMITER")) {
                String d = string("a delimiter in single quotes");
                if (d.length() != 1) {
                    throw error("a DELIMITER is one character, got '" + d + "'");
                }
                format = format.withDelimiter(d.charAt(0));
            } else if (accept("MAX_LINE_SIZE")) {
                // DuckDB's name: the most characters of one record, past which the load fails naming its line
                String n = number("a number of characters");
                long size;
                try {
                    size = Long.parseLong(n);
                } catch (NumberFormatException e) {
                    size = -1;
                }
                if (size < 1 || size > Integer.MAX_VALUE) {
                    throw error("MAX_LINE_SIZE takes a whole number of characters from 1 to " + Integer.MAX_VALUE + ", got " + n);
                }
                format = format.withMaxRecordChars((int) size);
            } else {
                throw error("unknown COPY option '" + tokens.get(pos) + "': use HEADER true|false, DELIMITER 'c' or MAX_LINE_SIZE n");
            }
            accept(",");
        }
        if (parenthesized) {
            expect(")");
        }
        return new DdlStatement.Copy(table, file, format);
    }

    /** CALL dbgen(sf = n): DuckDB's spelling; named parameters take = or =&gt;, and sf is the only one. */
    private DdlStatement dbgen() {
        String usage = "write CALL dbgen(sf = 0.1)";
        if (!accept("(")) {
            throw error("CALL dbgen needs a scale factor: " + usage);
        }
        String scaleFactor = null;
        if (!accept(")")) {
            do {
                String name = identifier("a parameter name (" + usage + ")");
                if (!name.equalsIgnoreCase("sf")) {
                    throw error("CALL dbgen takes one parameter, sf (the TPC-H scale factor), not '" + name + "': " + usage);
                }
                if (scaleFactor != null) {
                    throw error("CALL dbgen: sf is given twice");
                }
                expect("=");
                accept(">");
                scaleFactor = number("the scale factor (a positive number, e.g. sf = 0.1)");
            } while (accept(","));
            expect(")");
        }
        if (scaleFactor == null) {
            throw error("CALL dbgen needs a scale factor: " + usage);
        }
        double sf = Double.parseDouble(scaleFactor);
        if (!(sf > 0) || Double.isInfinite(sf)) {
            throw error("CALL dbgen: the scale factor sf must be a positive number, not " + scaleFactor);
        }
        return new DdlStatement.Dbgen(sf);
    }

    /** A number literal with an optional sign, as written. */
    private String number(String what) {
        String sign = accept("-") ? "-" : "";
        if (sign.isEmpty()) {
            accept("+");
        }
        if (pos >= tokens.size() || !isNumber(tokens.get(pos))) {
            String found = pos >= tokens.size() ? "the end" : tokens.get(pos).startsWith("'")
                    ? "the string " + tokens.get(pos) + " (write the number without quotes)" : "'" + tokens.get(pos) + "'";
            throw error("expected " + what + " but found " + found);
        }
        return sign + tokens.get(pos++);
    }

    private static boolean isNumber(String token) {
        char c = token.charAt(0);
        return Character.isDigit(c) || (c == '.' && token.length() > 1);
    }

    private String string(String what) {
        if (pos >= tokens.size() || !tokens.get(pos).startsWith("'")) {
            throw error("expected " + what + " but found " + (pos < tokens.size() ? "'" + tokens.get(pos) + "'" : "the end"));
        }
        String t = tokens.get(pos++);
        return t.substring(1, t.length() - 1).replace("''", "'");
    }

    private boolean accept(String keyword) {
        if (pos < tokens.size() && tokens.get(pos).equalsIgnoreCase(keyword)) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(String keyword) {
        if (!accept(keyword)) {
            throw error("expected '" + keyword + "' but found " + (pos < tokens.size() ? "'" + tokens.get(pos) + "'" : "the end"));
        }
    }

    private String identifier(String what) {
        if (pos >= tokens.size()) {
            throw error("expected " + what + " but found the end");
        }
        String t = tokens.get(pos);
        if (t.startsWith("\"")) {
            pos++;
            return t.substring(1, t.length() - 1).replace("\"\"", "\"");
        }
        if (!Character.isLetter(t.charAt(0)) && t.charAt(0) != '_') {
            throw error("expected " + what + " but found '" + t + "'");
        }
        pos++;
        return t;
    }

    /** A name, {@code name} or {@code schema.name}. */
    private DdlStatement.Name name(String what) {
        String first = identifier(what);
        return accept(".") ? new DdlStatement.Name(first, identifier(what)) : new DdlStatement.Name(null, first);
    }

    private IllegalArgumentException error(String message) {
        return new IllegalArgumentException(message);
    }

    private static List<String> tokenize(String sql) {
        return tokenize(sql, new ArrayList<>());
    }

    /**
     * Words, numbers (1, 0.5, .5, 1e-3), 'strings', double-quoted identifiers and single
     * punctuation; -- and /* comments skipped. Each token is the text of {@code sql} from where
     * {@code starts} has it, as long as the token.
     */
    private static List<String> tokenize(String sql, List<Integer> starts) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (sql.startsWith("--", i)) {
                int nl = sql.indexOf('\n', i);
                i = nl < 0 ? sql.length() : nl + 1;
            } else if (sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? sql.length() : end + 2;
            } else if (c == '\'' || c == '"') {
                int end = closingQuote(sql, i);
                starts.add(i);
                out.add(sql.substring(i, end + 1));
                i = end + 1;
            } else if (Character.isDigit(c) || (c == '.' && i + 1 < sql.length() && Character.isDigit(sql.charAt(i + 1)))) {
                int j = numberEnd(sql, i);
                starts.add(i);
                out.add(sql.substring(i, j));
                i = j;
            } else if (Character.isLetterOrDigit(c) || c == '_') {
                int j = i;
                while (j < sql.length() && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_')) {
                    j++;
                }
                starts.add(i);
                out.add(sql.substring(i, j));
                i = j;
            } else {
                starts.add(i);
                out.add(String.valueOf(c));
                i++;
            }
        }
        return out;
    }

    /** Where the number starting at {@code start} ends: digits, an optional fraction, an optional exponent. */
    private static int numberEnd(String sql, int start) {
        int j = digitsEnd(sql, start);
        if (j < sql.length() && sql.charAt(j) == '.') {
            j = digitsEnd(sql, j + 1);
        }
        if (j < sql.length() && (sql.charAt(j) == 'e' || sql.charAt(j) == 'E')) {
            int k = j + 1;
            if (k < sql.length() && (sql.charAt(k) == '+' || sql.charAt(k) == '-')) {
                k++;
            }
            if (k < sql.length() && Character.isDigit(sql.charAt(k))) {
                j = digitsEnd(sql, k);
            }
        }
        return j;
    }

    private static int digitsEnd(String sql, int start) {
        int j = start;
        while (j < sql.length() && Character.isDigit(sql.charAt(j))) {
            j++;
        }
        return j;
    }

    /** The position of the quote closing the string or quoted identifier opened at {@code start} (a doubled quote is part of it). */
    private static int closingQuote(String sql, int start) {
        char quote = sql.charAt(start);
        int j = start + 1;
        while (j < sql.length() && (sql.charAt(j) != quote || (j + 1 < sql.length() && sql.charAt(j + 1) == quote))) {
            j += sql.charAt(j) == quote ? 2 : 1;
        }
        if (j >= sql.length()) {
            throw new IllegalArgumentException("unterminated " + (quote == '"' ? "quoted identifier" : "string")
                    + " starting at " + sql.substring(start));
        }
        return j;
    }
}
