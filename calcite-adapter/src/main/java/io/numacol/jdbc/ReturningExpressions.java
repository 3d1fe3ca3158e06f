package io.numacol.jdbc;

import io.numacol.calcite.PrepareContexts;
import io.numacol.calcite.dml.ChangedRows;
import io.numacol.calcite.plan.NumacolPrepare;
import io.numacol.calcite.plan.ReturningProjection;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.runtime.CalciteContextException;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A RETURNING list with expressions in it ({@link Returning#list()}), read for one version of
 * the table a statement writes: compiled over its rows ({@link ReturningProjection}), its result's
 * columns described as the connection's planner describes {@code SELECT list FROM table}'s,
 * labelled as PostgreSQL labels them. Read before the statement runs, so that a list it cannot
 * answer (an unknown column, an aggregate) stores nothing; kept by the statement while the table
 * and the list stay, so that a prepared statement compiles it once.
 */
final class ReturningExpressions {
    private final Table table;
    private final TableSchema schema;
    private final String list;
    private final String alias;
    private final ReturningProjection projection;
    private final ReturningProjection.Projector projector;
    private final CalciteSignature<?> planned;
    private final List<ColumnMetaData> columns;

    private ReturningExpressions(Table table, String list, String alias, ReturningProjection projection,
                                 ReturningProjection.Projector projector, CalciteSignature<?> planned, List<ColumnMetaData> columns) {
        this.table = table;
        this.schema = table.schema();
        this.list = list;
        this.alias = alias;
        this.projection = projection;
        this.projector = projector;
        this.planned = planned;
        this.columns = columns;
    }

    /**
     * {@code list} read over {@code table}'s rows, the table called {@code alias} in it where the
     * statement gave it one (else null).
     *
     * @throws SQLException 42703 an unknown column, 42883 an unknown function, 42803 an aggregate,
     *                      0A000 a subquery or parameter, and what else the list's validation finds
     */
    static ReturningExpressions of(AvaticaConnection connection, Table table, String list, String alias) throws SQLException {
        NumacolMeta meta = NumacolMeta.of(connection);
        if (meta == null || !(connection instanceof CalciteConnection calcite)) {
            throw new SQLException("not a numacol connection", "08003");
        }
        CalciteConnectionConfig config = calcite.config();
        ReturningProjection projection;
        try {
            projection = ReturningProjection.read(table.schema(), table.schemaName(), table.name(), alias, list,
                    NumacolPrepare.functions(config), PrepareContexts.zone(config));
        } catch (CalciteContextException e) {
            // its message places the error in the SELECT read for the list; the validator's own says what it is
            String says = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
            throw SqlStates.create("RETURNING " + list + ": " + says, SqlStates.state(e), e);
        } catch (RuntimeException e) {
            throw SqlStates.of(e);
        }
        CalciteSignature<?> planned = meta.plan(projection.select());
        if (planned.columns.size() != projection.labels().size()) {
            throw new SQLException("RETURNING " + list + " gave " + planned.columns.size() + " columns planned and "
                    + projection.labels().size() + " read", SqlStates.INTERNAL_ERROR);
        }
        ReturningProjection.Projector projector;
        try {
            projector = projection.compile(planned.rowType);
        } catch (RuntimeException e) {
            throw SqlStates.of(e);
        }
        return new ReturningExpressions(table, list, alias, projection, projector, planned, labelled(planned.columns, projection.labels()));
    }

    /** Whether this is {@code list} read for {@code table} as it is now (a table altered since is read again). */
    boolean isFor(Table table, String list, String alias) {
        return this.table == table && schema == table.schema() && this.list.equals(list) && Objects.equals(this.alias, alias);
    }

    /**
     * The returned row of each row the table stores, at the statement's clock {@code now} (what
     * CURRENT_TIMESTAMP reads): for {@link ChangedRows}, which computes it as the row is stored.
     */
    UnaryOperator<Object[]> projection(long now) {
        List<RelDataTypeField> fields = projection.inputType().getFieldList();
        return row -> {
            Object[] values = new Object[fields.size()];
            for (int c = 0; c < values.length; c++) {
                values[c] = RowsResult.internal(row[c], fields.get(c).getType());
            }
            return projector.apply(values, now);
        };
    }

    /** The result of the rows a statement stored: projected as they were stored, or (rows as stored) here. */
    ResultSet result(AvaticaConnection connection, ChangedRows stored) throws SQLException {
        List<Object[]> rows = stored.rows();
        if (!stored.isProjected() && !rows.isEmpty()) {
            UnaryOperator<Object[]> project = projection(System.currentTimeMillis());
            try {
                rows = rows.stream().map(project).toList();
            } catch (RuntimeException e) {
                throw SqlStates.of(e); // what a query's expression fails with: a division by zero, an overflow
            }
        }
        return RowsResult.of(connection, planned, columns, rows);
    }

    /** The planned columns, each labelled as PostgreSQL labels it (the planner calls an unnamed expression EXPR$n). */
    private static List<ColumnMetaData> labelled(List<ColumnMetaData> planned, List<String> labels) {
        List<ColumnMetaData> columns = new ArrayList<>();
        for (int i = 0; i < planned.size(); i++) {
            ColumnMetaData c = planned.get(i);
            String label = labels.get(i);
            String name = c.columnName == null || c.columnName.equals(c.label) ? label : c.columnName;
            columns.add(new ColumnMetaData(c.ordinal, c.autoIncrement, c.caseSensitive, c.searchable, c.currency, c.nullable,
                    c.signed, c.displaySize, label, name, c.schemaName, c.precision, c.scale, c.tableName, c.catalogName, c.type,
                    c.readOnly, c.writable, c.definitelyWritable, c.columnClassName));
        }
        return columns;
    }
}
