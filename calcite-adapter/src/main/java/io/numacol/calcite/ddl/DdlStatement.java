package io.numacol.calcite.ddl;

import io.numacol.database.CsvFormat;
import io.numacol.database.Database;
import io.numacol.storage.TableSchema;
import io.numacol.storage.ViewDef;
import io.numacol.tpch.TpchLoader;
import org.apache.calcite.sql.SqlDdl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.parser.SqlParserPos;

import java.nio.file.Path;
import java.util.List;

/** A parsed numacol DDL statement, executed against the connection's database. */
abstract sealed class DdlStatement extends SqlDdl {

    DdlStatement(SqlOperator operator) {
        super(operator, SqlParserPos.ZERO);
    }

    /** Runs the statement; returns the rows it loaded (the JDBC update count), 0 for CREATE and DROP. */
    abstract long execute(Database database);

    @Override
    public List<SqlNode> getOperandList() {
        return List.of();
    }

    static final class CreateTable extends DdlStatement {
        private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE TABLE", SqlKind.CREATE_TABLE);
        final String name;
        final boolean ifNotExists;
        final TableSchema schema;

        CreateTable(String name, boolean ifNotExists, TableSchema schema) {
            super(OPERATOR);
            this.name = name;
            this.ifNotExists = ifNotExists;
            this.schema = schema;
        }

        @Override
        long execute(Database database) {
            if (!(ifNotExists && database.catalog().find(name).isPresent())) {
                database.catalog().create(name, schema);
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
        long execute(Database database) {
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
        long execute(Database database) {
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
        long execute(Database database) {
            if (!(ifExists && database.catalog().findIndex(name).isEmpty())) {
                database.catalog().dropIndex(name);
            }
            return 0;
        }
    }

    /** A view; {@link NumacolDdlExecutor} checks its query before it is recorded. */
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
        long execute(Database database) {
            throw new IllegalStateException("CREATE TABLE AS needs its query planned: NumacolDdlExecutor runs it");
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
        long execute(Database database) {
            return database.truncate(name);
        }
    }

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
        long execute(Database database) {
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
        long execute(Database database) {
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
        long execute(Database database) {
            return database.loadCsv(table, Path.of(file), format);
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
        long execute(Database database) {
            return TpchLoader.load(database, scaleFactor).totalRows();
        }
    }
}
