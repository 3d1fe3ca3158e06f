package io.numacol.calcite.ddl;

import io.numacol.database.Appender;
import io.numacol.database.CsvFormat;
import io.numacol.database.Database;
import io.numacol.placement.Placement;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.ViewDef;
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
import java.util.List;
import java.util.Optional;

/** A parsed numacol DDL statement, executed against the connection's database. */
abstract sealed class DdlStatement extends SqlDdl {

    DdlStatement(SqlOperator operator) {
        super(operator, SqlParserPos.ZERO);
    }

    /**
     * Runs the statement; returns the rows it loaded (the JDBC update count), 0 for CREATE and DROP.
     * {@code zone} is the session's, in which text of a TIMESTAMP WITH TIME ZONE without an offset is read.
     */
    abstract long execute(Database database, ZoneId zone);

    @Override
    public List<SqlNode> getOperandList() {
        return List.of();
    }

    static final class CreateTable extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE TABLE", SqlKind.CREATE_TABLE);
        final String name;
        final boolean ifNotExists;
        final TableSchema schema;
        /** Null: the default, each part on a node, the nodes in turn. */
        final Placement placement;

        CreateTable(String name, boolean ifNotExists, TableSchema schema, Placement placement) {
            super(OPERATOR);
            this.name = name;
            this.ifNotExists = ifNotExists;
            this.schema = schema;
            this.placement = placement;
        }

        @Override
        long execute(Database database, ZoneId zone) {
            if (placement != null) {
                placement.checkAgainst(database.topology()); // before the table exists: a refused CREATE creates nothing
            }
            if (!(ifNotExists && database.catalog().find(name).isPresent())) {
                Table table = database.catalog().create(name, schema);
                if (placement != null) {
                    database.setPlacement(table, placement);
                }
            }
            return 0;
        }
    }

    static final class DropTable extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("DROP TABLE", SqlKind.DROP_TABLE);
        final String name;
        final boolean ifExists;

        DropTable(String name, boolean ifExists) {
            super(OPERATOR);
            this.name = name;
            this.ifExists = ifExists;
        }

        @Override
        long execute(Database database, ZoneId zone) {
            if (!(ifExists && database.catalog().find(name).isEmpty())) {
                database.dropTable(name);
            }
            return 0;
        }
    }

    static final class CreateIndex extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE INDEX", SqlKind.CREATE_INDEX);
        final String name;
        final String table;
        final List<String> columns;
        final boolean unique;
        final boolean ifNotExists;

        CreateIndex(String name, String table, List<String> columns, boolean unique, boolean ifNotExists) {
            super(OPERATOR);
            this.name = name;
            this.table = table;
            this.columns = List.copyOf(columns);
            this.unique = unique;
            this.ifNotExists = ifNotExists;
        }

        @Override
        long execute(Database database, ZoneId zone) {
            if (!(ifNotExists && database.catalog().findIndex(name).isPresent())) {
                database.catalog().createIndex(name, table, columns, unique);
            }
            return 0;
        }
    }

    static final class DropIndex extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("DROP INDEX", SqlKind.DROP_INDEX);
        final String name;
        final boolean ifExists;

        DropIndex(String name, boolean ifExists) {
            super(OPERATOR);
            this.name = name;
            this.ifExists = ifExists;
        }

        @Override
        long execute(Database database, ZoneId zone) {
            if (!(ifExists && database.catalog().findIndex(name).isEmpty())) {
                database.catalog().dropIndex(name);
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
        final String name;
        final boolean ifNotExists;
        final String query;

        CreateTableAs(String name, boolean ifNotExists, String query) {
            super(OPERATOR);
            this.name = name;
            this.ifNotExists = ifNotExists;
            this.query = query;
        }

        @Override
        long execute(Database database, ZoneId zone) {
            throw new IllegalStateException("CREATE TABLE AS needs its query planned: NumacolDdlExecutor runs it");
        }
    }

    /**
     * ALTER TABLE: the table is rebuilt with its new name or columns and takes the old one's place
     * at once ({@link Database#alterTable}), or its pages move to another placement where they
     * are ({@link Database#setPlacement}); the update count is 0.
     */
    static final class AlterTable extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("ALTER TABLE", SqlKind.ALTER_TABLE);
        final String table;
        final boolean ifExists;
        final Action action;

        sealed interface Action {
        }

        /** {@code defaultValue} as text (as a CSV field gives it), null for NULL. */
        record AddColumn(ColumnDef column, String defaultValue, boolean ifNotExists) implements Action {
        }

        record DropColumn(String column, boolean ifExists) implements Action {
        }

        record RenameTable(String name) implements Action {
        }

        record RenameColumn(String from, String to) implements Action {
        }

        /** {@code placement} null: the default, each part on a node, the nodes in turn. */
        record SetPlacement(Placement placement) implements Action {
        }

        AlterTable(String table, boolean ifExists, Action action) {
            super(OPERATOR);
            this.table = table;
            this.ifExists = ifExists;
            this.action = action;
        }

        @Override
        long execute(Database database, ZoneId zone) {
            Optional<Table> found = database.catalog().find(table);
            if (found.isEmpty()) {
                if (ifExists) {
                    return 0;
                }
                throw new IllegalArgumentException("table " + table + " does not exist");
            }
            Table t = found.get();
            List<ColumnDef> columns = t.schema().columns();
            switch (action) {
                case AddColumn add -> {
                    if (t.schema().indexOf(add.column().name()) >= 0) {
                        if (add.ifNotExists()) {
                            return 0;
                        }
                        throw new IllegalArgumentException("table " + t.name() + " already has a column " + add.column().name());
                    }
                    Object value = Appender.valueOfText(add.column(), add.defaultValue(), zone);
                    if (value == null && !add.column().nullable() && t.rowCount() > 0) {
                        throw new IllegalArgumentException("column " + add.column().name() + " is NOT NULL: give it a DEFAULT for the "
                                + t.rowCount() + " rows of table " + t.name());
                    }
                    List<ColumnDef> next = new ArrayList<>(columns);
                    next.add(add.column());
                    database.alterTable(t, t.name(), new TableSchema(next), row -> {
                        Object[] out = Arrays.copyOf(row, row.length + 1);
                        out[row.length] = value;
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
                    List<ColumnDef> next = new ArrayList<>(columns);
                    next.remove(i);
                    database.alterTable(t, t.name(), new TableSchema(next), row -> {
                        Object[] out = new Object[row.length - 1];
                        System.arraycopy(row, 0, out, 0, i);
                        System.arraycopy(row, i + 1, out, i, row.length - i - 1);
                        return out;
                    }, c -> c.equalsIgnoreCase(drop.column()) ? null : c);
                }
                case RenameTable rename -> database.alterTable(t, rename.name(), t.schema(), row -> row, c -> c);
                case SetPlacement set -> database.setPlacement(t, set.placement());
                case RenameColumn rename -> {
                    int i = t.schema().indexOf(rename.from());
                    if (i < 0) {
                        throw new IllegalArgumentException("table " + t.name() + " has no column " + rename.from());
                    }
                    List<ColumnDef> next = new ArrayList<>(columns);
                    ColumnDef c = next.get(i);
                    next.set(i, new ColumnDef(rename.to(), c.type(), c.nullable()));
                    database.alterTable(t, t.name(), new TableSchema(next), row -> row,
                            n -> n.equalsIgnoreCase(rename.from()) ? rename.to() : n);
                }
            }
            return 0;
        }
    }

    /** TRUNCATE [TABLE] name: every row goes at once; the update count is how many. */
    static final class Truncate extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("TRUNCATE TABLE", SqlKind.OTHER_DDL);
        final String name;

        Truncate(String name) {
            super(OPERATOR);
            this.name = name;
        }

        @Override
        long execute(Database database, ZoneId zone) {
            return database.truncate(name);
        }
    }

    /** A view; {@link NumacolDdlExecutor} checks its query before it is recorded. */
    static final class CreateView extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE VIEW", SqlKind.CREATE_VIEW);
        final String name;
        final String query;
        final List<String> columns;
        final boolean orReplace;

        CreateView(String name, String query, List<String> columns, boolean orReplace) {
            super(OPERATOR);
            this.name = name;
            this.query = query;
            this.columns = List.copyOf(columns);
            this.orReplace = orReplace;
        }

        @Override
        long execute(Database database, ZoneId zone) {
            database.catalog().createView(new ViewDef(name, query, columns), orReplace);
            return 0;
        }
    }

    static final class DropView extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("DROP VIEW", SqlKind.DROP_VIEW);
        final String name;
        final boolean ifExists;

        DropView(String name, boolean ifExists) {
            super(OPERATOR);
            this.name = name;
            this.ifExists = ifExists;
        }

        @Override
        long execute(Database database, ZoneId zone) {
            if (!(ifExists && database.catalog().findView(name).isEmpty())) {
                database.catalog().dropView(name);
            }
            return 0;
        }
    }

    static final class Copy extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("COPY", SqlKind.OTHER_DDL);
        final String table;
        final String file;
        final CsvFormat format;

        Copy(String table, String file, CsvFormat format) {
            super(OPERATOR);
            this.table = table;
            this.file = file;
            this.format = format;
        }

        @Override
        long execute(Database database, ZoneId zone) {
            return database.loadCsv(table, Path.of(file), format.withZone(zone));
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
        long execute(Database database, ZoneId zone) {
            return TpchLoader.load(database, scaleFactor).totalRows();
        }
    }
}
