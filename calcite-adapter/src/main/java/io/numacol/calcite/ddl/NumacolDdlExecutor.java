package io.numacol.calcite.ddl;

import io.numacol.calcite.NumacolSchema;
import io.numacol.calcite.Planning;
import io.numacol.calcite.PrepareContexts;
import io.numacol.calcite.SqlTypes;
import io.numacol.database.Database;
import io.numacol.storage.Catalog;
import io.numacol.storage.CatalogView;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import io.numacol.storage.types.ColumnType;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.LongSchemaVersion;
import org.apache.calcite.server.DdlExecutor;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/** Runs numacol's DDL against the database behind the connection's {@code main} schema. */
final class NumacolDdlExecutor implements DdlExecutor {
    static final NumacolDdlExecutor INSTANCE = new NumacolDdlExecutor();

    private NumacolDdlExecutor() {
    }

    @Override
    public void executeDdl(CalcitePrepare.Context context, SqlNode node) {
        if (!(node instanceof DdlStatement ddl)) {
            throw new UnsupportedOperationException("numacol does not support " + node.getKind() + " statements");
        }
        CalciteSchema main = context.getRootSchema().getSubSchema(NumacolSchema.NAME, false);
        if (main == null || !(main.schema instanceof NumacolSchema schema)) {
            throw new IllegalStateException("this connection has no numacol schema '" + NumacolSchema.NAME + "'");
        }
        if (!DdlOutcome.executing()) {
            return; // Connection.prepareStatement: parsed and checked now, run by each execution (NumacolMeta.execute)
        }
        if (ddl instanceof DdlStatement.CreateView view) {
            checkView(schema.planning(), context, view);
        }
        Database database = schema.database();
        List<String> path = context.getDefaultSchemaPath();
        DdlStatement.Session session = new DdlStatement.Session(PrepareContexts.zone(context),
                path.isEmpty() ? Catalog.MAIN : path.getLast());
        Supplier<Object> filled = null;
        for (TableSchema.ColumnDef c : definedColumns(ddl)) {
            if (c.defaultExpression()) {
                DefaultValues.check(schema.planning(), context, database, session.schemaOf(ddlTable(ddl)), c);
                if (ddl instanceof DdlStatement.AlterTable) {
                    filled = DefaultValues.forRows(schema.planning(), context, database, c, session.zone());
                }
            }
        }
        if (ddl instanceof DdlStatement.AlterTable alter) {
            checkAlteredDefault(schema, context, database, session, alter);
        }
        DdlOutcome.report(ddl instanceof DdlStatement.CreateTableAs ctas ? createTableAs(schema.planning(), context, database, session, ctas)
                : ddl instanceof DdlStatement.AlterTable alter ? alter.execute(database, session, filled) : ddl.execute(database, session));
    }

    /**
     * ALTER COLUMN .. SET DEFAULT expression, and [SET DATA] TYPE of a column whose DEFAULT is an
     * expression: the expression is checked as a new column's DEFAULT is, against the column's
     * type (its new one), before anything changes.
     */
    private static void checkAlteredDefault(NumacolSchema schema, CalcitePrepare.Context context, Database database,
                                            DdlStatement.Session session, DdlStatement.AlterTable alter) {
        String column = switch (alter.action) {
            case DdlStatement.AlterTable.SetDefault set when set.expression() -> set.column();
            case DdlStatement.AlterTable.SetType set -> set.column();
            default -> null;
        };
        Table table = column == null ? null : database.catalog().find(session.schemaOf(alter.table), alter.table.name()).orElse(null);
        int i = table == null ? -1 : table.schema().indexOf(column);
        if (i < 0) {
            return; // the statement reports the missing table or column
        }
        TableSchema.ColumnDef c = table.schema().column(i);
        TableSchema.ColumnDef checked = switch (alter.action) {
            case DdlStatement.AlterTable.SetDefault set -> new TableSchema.ColumnDef(c.name(), c.type(), c.nullable(), set.text(), null, true);
            case DdlStatement.AlterTable.SetType set when c.defaultExpression() ->
                    new TableSchema.ColumnDef(c.name(), set.type(), c.nullable(), c.defaultText(), null, true);
            default -> null;
        };
        if (checked != null) {
            DefaultValues.check(schema.planning(), context, database, session.schemaOf(alter.table), checked);
        }
    }

    /** The table a CREATE TABLE or ALTER TABLE names. */
    private static DdlStatement.Name ddlTable(DdlStatement ddl) {
        return ddl instanceof DdlStatement.CreateTable create ? create.name : ((DdlStatement.AlterTable) ddl).table;
    }

    /** The columns {@code ddl} defines: a CREATE TABLE's, an ALTER TABLE .. ADD COLUMN's. */
    private static List<TableSchema.ColumnDef> definedColumns(DdlStatement ddl) {
        return switch (ddl) {
            case DdlStatement.CreateTable create -> create.schema.columns();
            case DdlStatement.AlterTable alter when alter.action instanceof DdlStatement.AlterTable.AddColumn add -> List.of(add.column());
            default -> List.of();
        };
    }

    /** Creates the table of the query's columns, then fills it as INSERT ... SELECT would; dropped again if that fails. */
    private static long createTableAs(Planning planning, CalcitePrepare.Context context, Database database,
                                      DdlStatement.Session session, DdlStatement.CreateTableAs ctas) {
        String schemaName = session.schemaOf(ctas.name);
        if (ctas.ifNotExists && database.catalog().find(schemaName, ctas.name.name()).isPresent()) {
            return 0;
        }
        RelDataType rowType;
        try {
            rowType = planning.rowType(context, ctas.query);
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() != null && "parse failed".equals(e.getMessage()) ? e.getCause() : e;
            throw new IllegalArgumentException("table " + ctas.name + ": " + cause.getMessage(), e);
        }
        List<TableSchema.ColumnDef> columns = new ArrayList<>();
        for (RelDataTypeField field : rowType.getFieldList()) {
            RelDataType type = field.getType();
            ColumnType column = SqlTypes.toColumnType(type);
            if (column == null && type.getSqlTypeName() == SqlTypeName.DECIMAL) {
                // a computed DECIMAL wider than stored ones (a SUM is DECIMAL(38, s)): its fraction
                // digits up to 6, more where its integer digits leave room (a quotient's); a value
                // with more integer digits than are left is refused as an INSERT's would be
                int integerDigits = type.getPrecision() - type.getScale();
                int scale = Math.min(type.getScale(), Math.max(ColumnType.MAX_DECIMAL_PRECISION - integerDigits, 6));
                column = ColumnType.decimal(ColumnType.MAX_DECIMAL_PRECISION, scale);
            }
            if (column == null) {
                throw new IllegalArgumentException("table " + ctas.name + ": column " + field.getName() + " is of type "
                        + type.getFullTypeString().replace(" NOT NULL", "") + ", which numacol tables do not store; CAST it");
            }
            columns.add(new TableSchema.ColumnDef(field.getName(), column, true));
        }
        // refuses two columns of one name
        Table created = database.catalog().create(schemaName, ctas.name.name(), new TableSchema(columns));
        try {
            String insert = "INSERT INTO " + quoted(created.schemaName()) + "." + quoted(created.name()) + " " + ctas.query;
            // planned against the schema as it is now, with the new table: the statement's own
            // context holds a snapshot taken before it
            return insertInto(planning, context, database, insert);
        } catch (RuntimeException | Error e) {
            try {
                if (!created.isDropped()) { // not dropped meanwhile
                    database.dropTable(created);
                }
            } catch (RuntimeException dropFailed) {
                e.addSuppressed(dropFailed);
            }
            throw e;
        }
    }

    /**
     * Plans and runs {@code insert} against the catalog as it is now, with the table the statement
     * created: the statement's own view of the catalog and its context's schema snapshot were
     * taken before it.
     */
    private static long insertInto(Planning planning, CalcitePrepare.Context context, Database database, String insert) {
        Object count = prepared(planning, context, database, insert, Supplier::get); // run while the catalog's view is held
        return ((Number) (count instanceof Object[] row ? row[0] : count)).longValue();
    }

    /**
     * {@code sql} planned against the catalog as it is now, given to {@code use} while that view of
     * the catalog is held: each get() runs it again and gives its first row (its one value, for
     * one column).
     */
    static <R> R prepared(Planning planning, CalcitePrepare.Context context, Database database, String sql,
                          Function<Supplier<Object>, R> use) {
        try (CatalogView view = database.catalog().beginRead()) {
            return CatalogView.runIn(view, () -> {
                CalcitePrepare.Context now = withSchemaOfNow(context);
                CalcitePrepare.CalciteSignature<Object> signature = planning.prepare(now, sql);
                DataContext base = now.getDataContext();
                DataContext withStash = new DataContext() { // the objects the generated code reads, as a statement's execution has them
                    @Override
                    public SchemaPlus getRootSchema() {
                        return base.getRootSchema();
                    }

                    @Override
                    public JavaTypeFactory getTypeFactory() {
                        return base.getTypeFactory();
                    }

                    @Override
                    public QueryProvider getQueryProvider() {
                        return base.getQueryProvider();
                    }

                    @Override
                    public Object get(String name) {
                        Object stashed = signature.internalParameters.get(name);
                        return stashed != null ? stashed : base.get(name);
                    }
                };
                return use.apply(() -> signature.enumerable(withStash).first());
            });
        }
    }

    private static String quoted(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }

    /** {@code context} with a snapshot of the connection's schema taken now. */
    private static CalcitePrepare.Context withSchemaOfNow(CalcitePrepare.Context context) {
        return PrepareContexts.of(context, context.getMutableRootSchema().createSnapshot(new LongSchemaVersion(System.nanoTime())),
                context.getDefaultSchemaPath());
    }

    /** A view's query must be valid now, and its column list, if any, name each of its columns. */
    private static void checkView(Planning planning, CalcitePrepare.Context context, DdlStatement.CreateView view) {
        RelDataType rowType;
        try {
            rowType = planning.rowType(context, view.query);
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() != null && e.getMessage() != null && e.getMessage().equals("parse failed")
                    ? e.getCause() : e;
            throw new IllegalArgumentException("view " + view.name + ": " + cause.getMessage(), e);
        }
        if (!view.columns.isEmpty() && view.columns.size() != rowType.getFieldCount()) {
            throw new IllegalArgumentException("view " + view.name + " names " + view.columns.size()
                    + " columns but its query has " + rowType.getFieldCount());
        }
    }
}
