package io.numacol.calcite.ddl;

import io.numacol.calcite.DefaultExpressions;
import io.numacol.calcite.Planning;
import io.numacol.calcite.SqlTypes;
import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSchema.ColumnDef;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.type.SqlTypeName;

import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * A column's DEFAULT expression evaluated outside an INSERT, by the connection's planning: its
 * type checked when CREATE TABLE or ALTER TABLE .. ADD COLUMN defines it (42804 when a value of
 * it cannot be stored in the column, as PostgreSQL's assignment rules say), and its values for
 * the rows ALTER TABLE .. ADD COLUMN fills: one value for all of them, or, when the expression
 * calls a function that answers anew each time (nextval, gen_random_uuid), one per row, as
 * PostgreSQL does.
 */
final class DefaultValues {
    private DefaultValues() {
    }

    /** Refuses {@code column}'s DEFAULT expression when its type cannot be assigned to the column's. */
    static void check(Planning planning, CalcitePrepare.Context context, Database database, String schema, ColumnDef column) {
        SqlNode parsed = DefaultExpressions.parse(column.defaultText());
        DefaultExpressions.ready(parsed, database.catalog(), schema); // its sequences exist (42P01 if not)
        RelDataType type = planning.rowType(context, "SELECT " + DefaultExpressions.typeOnly(parsed)).getFieldList().getFirst().getType();
        RelDataType target = SqlTypes.columns(context.getTypeFactory(), new TableSchema(List.of(column.withNullable(true))))
                .build().getFieldList().getFirst().getType();
        if (!assignable(target.getSqlTypeName(), type.getSqlTypeName())) {
            throw new DdlException("42804", "column \"" + column.name() + "\" is of type " + column.type()
                    + " but default expression is of type " + type.getFullTypeString().replace(" NOT NULL", "").toLowerCase(Locale.ROOT)
                    + ": rewrite or cast the expression (DEFAULT CAST(... AS " + column.type() + "))");
        }
    }

    /** Whether a value of type {@code from} is stored in a column of type {@code to} without an explicit cast, as PostgreSQL assigns. */
    private static boolean assignable(SqlTypeName to, SqlTypeName from) {
        if (from == SqlTypeName.NULL || to == from || SqlTypeName.CHAR_TYPES.contains(to)) {
            return true; // any value is stored in text as it is written
        }
        if (SqlTypeName.NUMERIC_TYPES.contains(to)) {
            return SqlTypeName.NUMERIC_TYPES.contains(from);
        }
        if (SqlTypeName.DATETIME_TYPES.contains(to)) {
            // a date from a timestamp, a timestamp from a date, with or without a zone; a time only from a time or a timestamp
            return SqlTypeName.DATETIME_TYPES.contains(from) && (to != SqlTypeName.TIME || from != SqlTypeName.DATE)
                    && (from != SqlTypeName.TIME || to == SqlTypeName.TIME);
        }
        if (SqlTypeName.BINARY_TYPES.contains(to)) {
            return SqlTypeName.BINARY_TYPES.contains(from);
        }
        return false; // BOOLEAN and UUID only from their own type, which the first test took
    }

    /**
     * What ALTER TABLE .. ADD COLUMN gives each existing row of {@code column}: the expression's
     * value, taken once when it is stable (CURRENT_TIMESTAMP is the statement's), else anew for
     * each call (each row).
     */
    static Supplier<Object> forRows(Planning planning, CalcitePrepare.Context context, Database database, ColumnDef column,
                                    ZoneId zone) {
        // as text in the column's type, which the column's codec reads back as COPY does
        String sql = "SELECT CAST(CAST(" + column.defaultText() + " AS " + column.type() + ") AS VARCHAR)";
        Supplier<Object> text = NumacolDdlExecutor.prepared(planning, context, database, sql, s -> s);
        Supplier<Object> value = () -> {
            Object t = text.get();
            return Appender.valueOfText(column, t instanceof Object[] row ? (String) row[0] : (String) t, zone);
        };
        if (DefaultExpressions.isVolatile(DefaultExpressions.parse(column.defaultText()))) {
            return value;
        }
        Object once = value.get();
        return () -> once;
    }
}
