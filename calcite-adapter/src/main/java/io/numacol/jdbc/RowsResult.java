package io.numacol.jdbc;

import io.numacol.calcite.SqlTypes;
import io.numacol.storage.Table;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A JDBC result set of rows a statement stored ({@link io.numacol.calcite.dml.ChangedRows}): the
 * answer of {@code getGeneratedKeys()} and of {@code RETURNING}. Its columns are those a {@code
 * SELECT} of the same columns of the table answers (planned for them, so that names, types and
 * nullability read the same), and its values are the stored ones, in Calcite's internal form so
 * that the getters convert them as they convert a query's. It is read through a statement of its
 * own, closed with it.
 */
final class RowsResult {
    private RowsResult() {
    }

    /** Columns {@code columns} (0-based, of {@code table}) of {@code rows}, each a stored row of the table. */
    static ResultSet of(AvaticaConnection connection, Table table, int[] columns, List<Object[]> rows) throws SQLException {
        NumacolMeta meta = NumacolMeta.of(connection);
        if (meta == null) {
            throw new SQLException("not a numacol connection", "08003");
        }
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.length; i++) {
            select.append(i == 0 ? "" : ", ").append(quoted(table.schema().column(columns[i]).name()));
        }
        select.append(" FROM ").append(quoted(table.schemaName())).append('.').append(quoted(table.name()));
        CalciteSignature<?> planned = meta.plan(select.toString());
        List<RelDataType> types = planned.rowType.getFieldList().stream().map(f -> f.getType()).toList();
        List<Object[]> answer = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            Object[] values = new Object[columns.length];
            for (int i = 0; i < columns.length; i++) {
                values[i] = internal(row[columns[i]], types.get(i));
            }
            answer.add(values);
        }
        return of(connection, planned, planned.columns, answer);
    }

    /**
     * {@code rows}, each a row of values in Calcite's internal form, as the result of {@code
     * planned} (a query planned for its columns alone), its columns described by {@code columns}.
     */
    static ResultSet of(AvaticaConnection connection, CalciteSignature<?> planned, List<ColumnMetaData> columns,
                        List<Object[]> rows) throws SQLException {
        // one column comes as its value alone, several as an array: as the planned query's rows would
        boolean arrays = planned.cursorFactory.style != Meta.Style.OBJECT || columns.size() != 1;
        List<Object> answer = new ArrayList<>(rows.size());
        for (Object[] row : rows) {
            answer.add(arrays ? row : row[0]);
        }
        return run(connection, new CalciteSignature<>(planned.sql, List.of(), Map.of(), planned.rowType, columns,
                planned.cursorFactory, planned.rootSchema, List.of(), -1, root -> Linq4j.asEnumerable(answer),
                Meta.StatementType.SELECT));
    }

    /** A result of no columns and no rows: getGeneratedKeys() of a statement that asked for none or stored none. */
    static ResultSet empty(AvaticaConnection connection) throws SQLException {
        return run(connection, new CalciteSignature<>("", List.of(), Map.of(), null, List.of(), Meta.CursorFactory.ARRAY, null,
                List.of(), -1, root -> Linq4j.emptyEnumerable(), Meta.StatementType.SELECT));
    }

    private static ResultSet run(AvaticaConnection connection, CalciteSignature<?> signature) throws SQLException {
        AvaticaStatement statement = connection.createStatement();
        try {
            ResultSet rs = (ResultSet) EXECUTE_QUERY_INTERNAL.invoke(connection, statement, signature, null, new QueryState(), false);
            statement.closeOnCompletion(); // the statement is the result's alone
            return rs;
        } catch (SQLException | RuntimeException | Error e) {
            statement.close();
            throw e;
        } catch (Throwable e) {
            statement.close();
            throw new SQLException(e.getMessage(), SqlStates.INTERNAL_ERROR, e);
        }
    }

    /** A name as a quoted identifier, so that it reads back as it is whatever its case or characters. */
    private static String quoted(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /**
     * A stored value as Calcite's generated code carries one of {@code type} (the inverse of the
     * codecs' {@code fromInternal}): a DATE as its epoch day, a TIMESTAMP as wall-clock
     * milliseconds, a TIME as milliseconds of the day, bytes as a ByteString, numbers as the
     * class of their type.
     */
    static Object internal(Object value, RelDataType type) {
        return switch (value) {
            case null -> null;
            case LocalDate d -> (int) d.toEpochDay();
            case LocalDateTime t -> t.toInstant(ZoneOffset.UTC).toEpochMilli();
            case Instant i -> i.toEpochMilli();
            case LocalTime t -> (int) (t.toNanoOfDay() / 1_000_000L);
            case byte[] b -> new ByteString(b);
            case String s when type.getSqlTypeName() == SqlTypeName.UUID -> UUID.fromString(s.strip());
            case Number n -> SqlTypes.toInternal(n, type);
            default -> value;
        };
    }

    /** Avatica's protected executeQueryInternal: the one way to open a result set of a signature made here. */
    private static final MethodHandle EXECUTE_QUERY_INTERNAL;

    static {
        try {
            EXECUTE_QUERY_INTERNAL = MethodHandles.privateLookupIn(AvaticaConnection.class, MethodHandles.lookup())
                    .findVirtual(AvaticaConnection.class, "executeQueryInternal", MethodType.methodType(ResultSet.class,
                            AvaticaStatement.class, Meta.Signature.class, Meta.Frame.class, QueryState.class, boolean.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
