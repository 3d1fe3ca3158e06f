package io.numacol.calcite.ddl;

import io.numacol.calcite.NumacolSchema;
import io.numacol.calcite.plan.NumacolPrepare;
import io.numacol.database.Database;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.server.DdlExecutor;
import org.apache.calcite.sql.SqlNode;

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
        if (!DdlUpdateCount.executing()) {
            return; // Connection.prepareStatement: parsed and checked now, run by each execution (NumacolMeta.execute)
        }
        if (ddl instanceof DdlStatement.CreateView view) {
            checkView(context, view);
        }
        Database database = schema.database();
        DdlUpdateCount.report(ddl.execute(database));
    }

    /** A view's query must be valid now, and its column list, if any, name each of its columns. */
    private static void checkView(CalcitePrepare.Context context, DdlStatement.CreateView view) {
        RelDataType rowType;
        try {
            rowType = new NumacolPrepare().parse(context, view.query).rowType;
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
