package io.numacol.calcite.ddl;

import io.numacol.calcite.InformationSchema;
import io.numacol.calcite.PgCatalog;
import io.numacol.calcite.QueryCancel;
import io.numacol.calcite.SysSchema;
import io.numacol.database.Appender;
import io.numacol.database.CsvFormat;
import io.numacol.database.Database;
import io.numacol.placement.Placement;
import io.numacol.storage.Catalog;
import io.numacol.storage.NamedSequence;
import io.numacol.storage.SequenceDef;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.TableSchema;
import io.numacol.storage.ViewDef;
import io.numacol.storage.types.ColumnType;
import io.numacol.tpch.TpchLoader;
import org.apache.calcite.sql.SqlDdl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/** A parsed numacol DDL statement, executed against the connection's database. */
abstract sealed class DdlStatement extends SqlDdl {

    DdlStatement(SqlOperator operator) {
        super(operator, SqlParserPos.ZERO);
    }

    /**
     * Runs the statement; returns the rows it loaded (the JDBC update count), 0 for CREATE and DROP.
     */
    abstract long execute(Database database, Session session);

    /** {@code sys}, {@code information_schema} or {@code pg_catalog} as spelled, if {@code schema} names one: they hold numacol's tables, not the catalog's. */
    static String numacolsOwn(String schema) {
        for (String own : List.of(SysSchema.NAME, InformationSchema.NAME, PgCatalog.NAME)) {
            if (own.equalsIgnoreCase(schema)) {
                return own;
            }
        }
        return null;
    }

    /** A name as written: {@code schema} is null where none was, and the session's then. */
    record Name(String schema, String name) {
        @Override
        public String toString() {
            return schema == null ? name : schema + "." + name;
        }
    }

    /**
     * What of the session a statement needs: its zone, in which text of a TIMESTAMP WITH TIME ZONE
     * without an offset is read, and its schema, which holds what an unqualified name names.
     */
    record Session(ZoneId zone, String schema) {
        /** The schema {@code name} is in; numacol's own schemas hold nothing DDL may name. */
        String schemaOf(Name name) {
            String schema = name.schema() != null ? name.schema() : this.schema;
            if (numacolsOwn(schema) != null) {
                throw new IllegalArgumentException("schema " + schema + " is numacol's own and holds no tables or views of yours: "
                        + (name.schema() != null ? "name another schema" : "SET SCHEMA to " + Catalog.MAIN + " or another of yours, or qualify " + name.name()));
            }
            return schema;
        }

        Optional<Table> find(Database database, Name name) {
            return database.catalog().find(schemaOf(name), name.name());
        }

        Table get(Database database, Name name) {
            return database.catalog().get(schemaOf(name), name.name());
        }
    }

    @Override
    public List<SqlNode> getOperandList() {
        return List.of();
    }

    static final class CreateTable extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE TABLE", SqlKind.CREATE_TABLE);
        final Name name;
        final boolean ifNotExists;
        final TableSchema schema;
        /** Null: the default, each part on a node, the nodes in turn. */
        final Placement placement;
        /** Its FOREIGN KEY and REFERENCES clauses, resolved against the catalog when it runs. */
        final List<ForeignKeySpec> references;

        CreateTable(Name name, boolean ifNotExists, TableSchema schema, Placement placement, List<ForeignKeySpec> references) {
            super(OPERATOR);
            this.name = name;
            this.ifNotExists = ifNotExists;
            this.schema = schema;
            this.placement = placement;
            this.references = List.copyOf(references);
        }

        @Override
        long execute(Database database, Session session) {
            if (placement != null) {
                placement.checkAgainst(database.topology()); // before the table exists: a refused CREATE creates nothing
            }
            if (!(ifNotExists && session.find(database, name).isPresent())) {
                String schemaName = session.schemaOf(name);
                TableSchema resolved = schema;
                if (!references.isEmpty()) {
                    Set<String> taken = new HashSet<>();
                    schema.keys().forEach(k -> taken.add(k.name().toUpperCase(Locale.ROOT)));
                    schema.checks().forEach(c -> taken.add(c.name().toUpperCase(Locale.ROOT)));
                    List<TableSchema.ForeignKeyDef> keys = new ArrayList<>();
                    for (ForeignKeySpec r : references) {
                        keys.add(r.resolve(database, session, schemaName, name.name(), schema, taken));
                    }
                    resolved = schema.withForeignKeys(keys);
                }
                Table table = database.catalog().create(schemaName, name.name(), resolved);
                if (placement != null) {
                    database.setPlacement(table, placement);
                }
            }
            return 0;
        }
    }

    static final class DropTable extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("DROP TABLE", SqlKind.DROP_TABLE);
        final Name name;
        final boolean ifExists;
        /** DROP ... CASCADE: the foreign keys of other tables that name it are dropped with it. */
        final boolean cascade;

        DropTable(Name name, boolean ifExists, boolean cascade) {
            super(OPERATOR);
            this.name = name;
            this.ifExists = ifExists;
            this.cascade = cascade;
        }

        @Override
        long execute(Database database, Session session) {
            Optional<Table> table = session.find(database, name);
            if (!(ifExists && table.isEmpty())) {
                Table t = table.orElseGet(() -> session.get(database, name));
                for (Table child : Dependents.children(database, t)) {
                    if (!cascade) {
                        throw Dependents.refusal("drop table " + t.name(), child, t);
                    }
                    Dependents.dropReferences(database, child, t);
                }
                database.dropTable(t);
            }
            return 0;
        }
    }

    static final class CreateIndex extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE INDEX", SqlKind.CREATE_INDEX);
        final String name;
        final Name table;
        final List<String> columns;
        final boolean unique;
        final boolean ifNotExists;

        /** The index is in its table's schema. */
        CreateIndex(String name, Name table, List<String> columns, boolean unique, boolean ifNotExists) {
            super(OPERATOR);
            this.name = name;
            this.table = table;
            this.columns = List.copyOf(columns);
            this.unique = unique;
            this.ifNotExists = ifNotExists;
        }

        @Override
        long execute(Database database, Session session) {
            Table t = session.get(database, table);
            if (!(ifNotExists && database.catalog().findIndex(t.schemaName(), name).isPresent())) {
                database.catalog().createIndex(name, t, columns, unique);
            }
            return 0;
        }
    }

    static final class DropIndex extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("DROP INDEX", SqlKind.DROP_INDEX);
        final Name name;
        final boolean ifExists;

        DropIndex(Name name, boolean ifExists) {
            super(OPERATOR);
            this.name = name;
            this.ifExists = ifExists;
        }

        @Override
        long execute(Database database, Session session) {
            String schema = session.schemaOf(name);
            if (!(ifExists && database.catalog().findIndex(schema, name.name()).isEmpty())) {
                database.catalog().dropIndex(schema, name.name());
            }
            return 0;
        }
    }

    /**
     * CREATE TABLE name AS query: a table of the query's columns (names and types as it gives
     * them, every column nullable), filled by the query as an INSERT ... SELECT fills a table.
     * Run by {@link NumacolDdlExecutor}, which plans the query; if filling fails, the table is
     * dropped again.
     */
    static final class CreateTableAs extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE TABLE AS", SqlKind.CREATE_TABLE);
        final Name name;
        final boolean ifNotExists;
        final String query;

        CreateTableAs(Name name, boolean ifNotExists, String query) {
            super(OPERATOR);
            this.name = name;
            this.ifNotExists = ifNotExists;
            this.query = query;
        }

        @Override
        long execute(Database database, Session session) {
            throw new IllegalStateException("CREATE TABLE AS needs its query planned: NumacolDdlExecutor runs it");
        }
    }

    /**
     * ALTER TABLE: the table is rebuilt with its new name, columns or constraints and takes the old
     * one's place at once ({@link Database#alterTable}, {@link Database#alterConstraints}), or its
     * pages move to another placement where they are ({@link Database#setPlacement}); the update
     * count is 0.
     */
    static final class AlterTable extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("ALTER TABLE", SqlKind.ALTER_TABLE);
        final Name table;
        final boolean ifExists;
        final Action action;

        sealed interface Action {
        }

        /** {@code defaultValue} as text (as a CSV field gives it), null for NULL; {@code checks} the column's CHECK constraints. */
        record AddColumn(ColumnDef column, String defaultValue, boolean ifNotExists, List<DdlParser.Check> checks) implements Action {
            AddColumn {
                checks = List.copyOf(checks);
            }
        }

        /** ADD [CONSTRAINT name] CHECK (expression): {@code name} null when the statement gives none. */
        record AddCheck(String name, String expression) implements Action {
        }

        /**
         * DROP CONSTRAINT [IF EXISTS] name [CASCADE]: a CHECK, FOREIGN KEY, UNIQUE or PRIMARY KEY
         * constraint; {@code cascade} drops the foreign keys that reference a key with it.
         */
        record DropConstraint(String name, boolean ifExists, boolean cascade) implements Action {
        }

        /** ADD [CONSTRAINT name] PRIMARY KEY | UNIQUE (columns): {@code name} null when the statement gives none. */
        record AddKey(String name, List<String> columns, boolean primary) implements Action {
            AddKey {
                columns = List.copyOf(columns);
            }
        }

        /** ALTER [COLUMN] column SET NOT NULL ({@code notNull}) or DROP NOT NULL. */
        record SetNotNull(String column, boolean notNull) implements Action {
        }

        /**
         * ALTER [COLUMN] column SET DEFAULT literal ({@code text} as DEFAULT reads it, null for NULL)
         * or expression ({@code expression}: {@code text} is its SQL), or DROP DEFAULT ({@code drop}).
         */
        record SetDefault(String column, String text, boolean expression, boolean drop) implements Action {
        }

        /** ALTER [COLUMN] column [SET DATA] TYPE type: stored values cast to {@code type}. */
        record SetType(String column, ColumnType type) implements Action {
        }

        record DropColumn(String column, boolean ifExists) implements Action {
        }

        /** {@code name} may name the table's own schema, no other. */
        record RenameTable(Name name) implements Action {
        }

        record RenameColumn(String from, String to) implements Action {
        }

        /** {@code placement} null: the default, each part on a node, the nodes in turn. */
        record SetPlacement(Placement placement) implements Action {
        }

        /** ADD [CONSTRAINT name] FOREIGN KEY: the table's rows are checked against the parent first. */
        record AddForeignKey(ForeignKeySpec key) implements Action {
        }

        AlterTable(Name table, boolean ifExists, Action action) {
            super(OPERATOR);
            this.table = table;
            this.ifExists = ifExists;
            this.action = action;
        }

        @Override
        long execute(Database database, Session session) {
            return execute(database, session, null);
        }

        /**
         * Runs the statement; {@code filled}, for ADD COLUMN with a DEFAULT expression, gives the
         * value of each existing row (the planner evaluates the expression, see {@code DefaultValues}).
         */
        long execute(Database database, Session session, Supplier<Object> filled) {
            Optional<Table> found = session.find(database, table);
            if (found.isEmpty()) {
                if (ifExists) {
                    return 0;
                }
                throw new IllegalArgumentException("table " + table + " does not exist");
            }
            Table t = found.get();
            ZoneId zone = session.zone();
            List<ColumnDef> columns = t.schema().columns();
            switch (action) {
                case AddColumn add -> {
                    if (t.schema().indexOf(add.column().name()) >= 0) {
                        if (add.ifNotExists()) {
                            return 0;
                        }
                        throw new IllegalArgumentException("table " + t.name() + " already has a column " + add.column().name());
                    }
                    Object value = filled != null ? null : DdlParser.defaultValue(add.column(), add.defaultValue(), zone);
                    if (filled == null && value == null && !add.column().nullable() && t.rowCount() > 0) {
                        throw new IllegalArgumentException("column " + add.column().name() + " is NOT NULL: give it a DEFAULT for the "
                                + t.rowCount() + " rows of table " + t.name());
                    }
                    List<ColumnDef> next = new ArrayList<>(columns);
                    next.add(add.column());
                    TableSchema added = new TableSchema(next);
                    if (!add.checks().isEmpty()) { // the table's own checks as they are (no column renamed), and the column's
                        List<TableSchema.CheckDef> checks = new ArrayList<>(t.schema().checks());
                        checks.addAll(DdlParser.checkDefs(t.name(), new TableSchema(next, t.schema().keys(), t.schema().foreignKeys(), t.schema().checks()),
                                add.checks()));
                        added = added.withChecks(checks);
                    }
                    database.alterTable(t, t.name(), added, row -> {
                        Object[] out = Arrays.copyOf(row, row.length + 1);
                        out[row.length] = filled != null ? filled.get() : value;
                        return out;
                    }, c -> c);
                }
                case DropColumn drop -> {
                    int i = t.schema().indexOf(drop.column());
                    if (i < 0) {
                        if (drop.ifExists()) {
                            return 0;
                        }
                        throw new IllegalArgumentException("table " + t.name() + " has no column " + drop.column());
                    }
                    if (columns.size() == 1) {
                        throw new IllegalArgumentException("column " + drop.column() + " is the only column of table " + t.name()
                                + ": drop the table instead");
                    }
                    Dependents.checkColumnKept(database, t, drop.column(), "drop column " + drop.column() + " of table " + t.name());
                    List<ColumnDef> next = new ArrayList<>(columns);
                    next.remove(i);
                    database.alterTable(t, t.name(), new TableSchema(next), row -> {
                        Object[] out = new Object[row.length - 1];
                        System.arraycopy(row, 0, out, 0, i);
                        System.arraycopy(row, i + 1, out, i, row.length - i - 1);
                        return out;
                    }, c -> c.equalsIgnoreCase(drop.column()) ? null : c);
                }
                case RenameTable rename -> {
                    if (rename.name().schema() != null && !rename.name().schema().equalsIgnoreCase(t.schemaName())) {
                        throw new IllegalArgumentException("RENAME TO " + rename.name() + ": a table stays in its schema, "
                                + t.schemaName() + "; to move it, CREATE TABLE " + rename.name() + " AS SELECT * FROM "
                                + t.displayName() + " and drop it");
                    }
                    for (Table child : Dependents.children(database, t)) {
                        throw Dependents.refusal("rename table " + t.name(), child, t);
                    }
                    database.alterTable(t, rename.name().name(), Dependents.renamedParent(t, rename.name().name()), row -> row, c -> c, true);
                }
                case AddForeignKey add -> Dependents.addForeignKey(database, session, t, add.key());
                case SetPlacement set -> database.setPlacement(t, set.placement());
                case AddCheck add -> {
                    TableSchema schema = t.schema();
                    List<TableSchema.CheckDef> checks = new ArrayList<>(schema.checks());
                    checks.addAll(DdlParser.checkDefs(t.name(), schema, List.of(new DdlParser.Check(add.name(), add.expression()))));
                    database.alterConstraints(t, schema.withChecks(checks)); // every row is checked: one that fails refuses the ALTER
                }
                case DropConstraint drop -> {
                    if (t.schema().foreignKeys().stream().anyMatch(f -> f.name().equalsIgnoreCase(drop.name()))) {
                        Dependents.dropForeignKey(database, t, drop.name());
                        return 0;
                    }
                    if (!hasConstraint(t.schema(), drop.name())) {
                        if (drop.ifExists()) {
                            return 0;
                        }
                        throw new IllegalArgumentException("constraint \"" + drop.name() + "\" of relation \"" + t.name() + "\" does not exist");
                    }
                    Table keyed = t;
                    if (drop.cascade()) {
                        // the table itself may be among the children (a foreign key to its own key): then it was rebuilt
                        keyed = Dependents.dropKeyReferences(database, t, drop.name());
                    } else {
                        Dependents.checkKeyUnreferenced(database, t, drop.name());
                    }
                    TableSchema schema = keyed.schema();
                    database.alterConstraints(keyed, new TableSchema(schema.columns(),
                            schema.keys().stream().filter(k -> !drop.name().equalsIgnoreCase(k.name())).toList(),
                            schema.foreignKeys(), schema.checks().stream().filter(c -> !drop.name().equalsIgnoreCase(c.name())).toList()));
                }
                case AddKey add -> KeyAddition.add(database, t, add.name(), add.columns(), add.primary());
                case SetNotNull set -> ColumnAlteration.setNotNull(database, t, set.column(), set.notNull());
                case SetDefault set -> ColumnAlteration.setDefault(database, t, set.column(), set.text(), set.expression(), set.drop(), zone);
                case SetType set -> ColumnAlteration.setType(database, t, set.column(), set.type(), zone);
                case RenameColumn rename -> {
                    int i = t.schema().indexOf(rename.from());
                    if (i < 0) {
                        throw new IllegalArgumentException("table " + t.name() + " has no column " + rename.from());
                    }
                    Dependents.checkColumnKept(database, t, rename.from(), "rename column " + rename.from() + " of table " + t.name());
                    List<ColumnDef> next = new ArrayList<>(columns);
                    ColumnDef c = next.get(i);
                    next.set(i, c.renamed(rename.to()));
                    database.alterTable(t, t.name(), new TableSchema(next), row -> row,
                            n -> n.equalsIgnoreCase(rename.from()) ? rename.to() : n);
                }
            }
            return 0;
        }
    }

    /** Whether {@code schema} has a PRIMARY KEY, UNIQUE or CHECK constraint named {@code name} (ignoring case, as names are matched); foreign keys are asked apart. */
    static boolean hasConstraint(TableSchema schema, String name) {
        return schema.keys().stream().anyMatch(k -> name.equalsIgnoreCase(k.name()))
                || schema.checks().stream().anyMatch(c -> name.equalsIgnoreCase(c.name()));
    }

    /** TRUNCATE [TABLE] name: every row goes at once; the update count is how many. */
    static final class Truncate extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("TRUNCATE TABLE", SqlKind.OTHER_DDL);
        final Name name;

        Truncate(Name name) {
            super(OPERATOR);
            this.name = name;
        }

        @Override
        long execute(Database database, Session session) {
            return database.truncate(session.get(database, name));
        }
    }

    /**
     * COMMENT ON TABLE table IS 'text' | NULL, or COMMENT ON COLUMN table.column IS ...: kept in
     * the catalog (NULL removes it), given as REMARKS by getTables and getColumns.
     */
    static final class Comment extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("COMMENT ON", SqlKind.OTHER_DDL);
        final Name table;
        /** The column commented on; null for the table. */
        final String column;
        /** The comment; null to remove it. */
        final String text;

        Comment(Name table, String column, String text) {
            super(OPERATOR);
            this.table = table;
            this.column = column;
            this.text = text;
        }

        @Override
        long execute(Database database, Session session) {
            database.catalog().comment(session.get(database, table), column, text);
            return 0;
        }
    }

    /** A view; {@link NumacolDdlExecutor} checks its query before it is recorded. */
    static final class CreateView extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE VIEW", SqlKind.CREATE_VIEW);
        final Name name;
        final String query;
        final List<String> columns;
        final boolean orReplace;

        CreateView(Name name, String query, List<String> columns, boolean orReplace) {
            super(OPERATOR);
            this.name = name;
            this.query = query;
            this.columns = List.copyOf(columns);
            this.orReplace = orReplace;
        }

        @Override
        long execute(Database database, Session session) {
            database.catalog().createView(new ViewDef(session.schemaOf(name), name.name(), query, columns, session.schema()), orReplace);
            return 0;
        }
    }

    static final class DropView extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("DROP VIEW", SqlKind.DROP_VIEW);
        final Name name;
        final boolean ifExists;

        DropView(Name name, boolean ifExists) {
            super(OPERATOR);
            this.name = name;
            this.ifExists = ifExists;
        }

        @Override
        long execute(Database database, Session session) {
            String schema = session.schemaOf(name);
            if (!(ifExists && database.catalog().findView(schema, name.name()).isEmpty())) {
                database.catalog().dropView(schema, name.name());
            }
            return 0;
        }
    }

    static final class Copy extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("COPY", SqlKind.OTHER_DDL);
        final Name table;
        final String file;
        final CsvFormat format;

        Copy(Name table, String file, CsvFormat format) {
            super(OPERATOR);
            this.table = table;
            this.file = file;
            this.format = format;
        }

        @Override
        long execute(Database database, Session session) {
            Table target = session.get(database, table);
            Path path = database.fileAccess().check(file);
            return database.loadCsv(target, path, format.withZone(session.zone()), QueryCancel.current()::check);
        }
    }

    /** CALL dbgen(sf = n): the eight TPC-H tables, created and loaded; all of them or, on failure, none. */
    static final class Dbgen extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("CALL DBGEN", SqlKind.OTHER_DDL);
        final double scaleFactor;

        Dbgen(double scaleFactor) {
            super(OPERATOR);
            this.scaleFactor = scaleFactor;
        }

        @Override
        long execute(Database database, Session session) {
            return TpchLoader.load(database, scaleFactor).totalRows();
        }
    }

    /** CREATE SCHEMA [IF NOT EXISTS] name. */
    static final class CreateSchema extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE SCHEMA", SqlKind.CREATE_SCHEMA);
        final String name;
        final boolean ifNotExists;

        CreateSchema(String name, boolean ifNotExists) {
            super(OPERATOR);
            this.name = name;
            this.ifNotExists = ifNotExists;
        }

        @Override
        long execute(Database database, Session session) {
            if (numacolsOwn(name) != null) {
                throw new IllegalArgumentException("schema " + name + " is numacol's own: choose another name");
            }
            if (!(ifNotExists && database.catalog().findSchema(name).isPresent())) {
                database.catalog().createSchema(name);
            }
            return 0;
        }
    }

    /**
     * SET SCHEMA name (or USE name): unqualified names of the session's later statements are read
     * in schema {@code name}, as {@code Connection.setSchema} does; the driver moves the session.
     */
    static final class SetSchema extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("SET SCHEMA", SqlKind.OTHER_DDL);
        final String name;

        SetSchema(String name) {
            super(OPERATOR);
            this.name = name;
        }

        /** The schema as spelled where it is kept: numacol's own two, or one of the catalog. */
        String spelled(Database database) {
            String own = numacolsOwn(name);
            return own != null ? own : database.catalog().findSchema(name).orElseThrow(() -> new IllegalArgumentException("schema " + name
                    + " does not exist: CREATE SCHEMA " + name + " first"));
        }

        @Override
        long execute(Database database, Session session) {
            DdlOutcome.reportSchema(spelled(database));
            return 0;
        }
    }

    /** DROP SCHEMA [IF EXISTS] name [CASCADE | RESTRICT]: RESTRICT, the default, drops only an empty schema. */
    static final class DropSchema extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("DROP SCHEMA", SqlKind.DROP_SCHEMA);
        final String name;
        final boolean ifExists;
        final boolean cascade;

        DropSchema(String name, boolean ifExists, boolean cascade) {
            super(OPERATOR);
            this.name = name;
            this.ifExists = ifExists;
            this.cascade = cascade;
        }

        @Override
        long execute(Database database, Session session) {
            if (numacolsOwn(name) != null) {
                throw new IllegalArgumentException("schema " + name + " is numacol's own and cannot be dropped");
            }
            if (!(ifExists && database.catalog().findSchema(name).isEmpty())) {
                database.dropSchema(name, cascade);
            }
            return 0;
        }
    }

    /** CREATE SEQUENCE [IF NOT EXISTS] name [AS type] [START ..] [INCREMENT ..] [MINVALUE ..] [MAXVALUE ..] [CYCLE]. */
    static final class CreateSequence extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE SEQUENCE", SqlKind.CREATE_SEQUENCE);
        final Name name;
        final boolean ifNotExists;
        final String type;
        final Long start;
        final Long increment;
        final Long minValue;
        final Long maxValue;
        final boolean cycle;

        CreateSequence(Name name, boolean ifNotExists, String type, Long start, Long increment, Long minValue, Long maxValue,
                       boolean cycle) {
            super(OPERATOR);
            this.name = name;
            this.ifNotExists = ifNotExists;
            this.type = type;
            this.start = start;
            this.increment = increment;
            this.minValue = minValue;
            this.maxValue = maxValue;
            this.cycle = cycle;
        }

        @Override
        long execute(Database database, Session session) {
            String schema = session.schemaOf(name);
            if (ifNotExists && database.catalog().findSequence(schema, name.name()).isPresent()) {
                return 0;
            }
            SequenceDef def = SequenceDef.withDefaults(schema, name.name(), type, start, increment, minValue, maxValue, cycle);
            database.catalog().createSequence(def, new NamedSequence.Position(def.start(), false));
            return 0;
        }
    }

    /** DROP SEQUENCE [IF EXISTS] name [CASCADE | RESTRICT]: a statement planned with it fails when it runs. */
    static final class DropSequence extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("DROP SEQUENCE", SqlKind.DROP_SEQUENCE);
        final Name name;
        final boolean ifExists;

        DropSequence(Name name, boolean ifExists) {
            super(OPERATOR);
            this.name = name;
            this.ifExists = ifExists;
        }

        @Override
        long execute(Database database, Session session) {
            String schema = session.schemaOf(name);
            if (!(ifExists && database.catalog().findSequence(schema, name.name()).isEmpty())) {
                database.catalog().dropSequence(schema, name.name());
            }
            return 0;
        }
    }
}
