package io.numacol.calcite.dml;

import io.numacol.calcite.QueryCancel;
import io.numacol.calcite.ddl.TimeLiterals;
import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.storage.IdentityViolationException;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import io.numacol.storage.types.BooleanCodec;
import io.numacol.storage.types.CharCodec;
import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.DateCodec;
import io.numacol.storage.types.DecimalCodec;
import io.numacol.storage.types.DoubleCodec;
import io.numacol.storage.types.IntegralCodec;
import io.numacol.storage.types.RealCodec;
import io.numacol.storage.types.StoredAsDouble;
import io.numacol.storage.types.StoredAsString;
import io.numacol.storage.types.TimeCodec;
import io.numacol.storage.types.TimestampCodec;
import io.numacol.storage.types.TimestampTzCodec;
import io.numacol.storage.types.UuidCodec;
import io.numacol.storage.types.VarbinaryCodec;
import io.numacol.storage.types.VarcharCodec;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBinaryStringLiteral;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDateLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlTimeLiteral;
import org.apache.calcite.sql.SqlTimestampLiteral;
import org.apache.calcite.sql.SqlUnknownLiteral;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.BitString;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimeString;
import org.apache.calcite.util.TimestampString;

import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.runtime.Bindable;

import java.math.BigDecimal;
import java.sql.DatabaseMetaData;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code INSERT INTO t [(columns)] VALUES (..), (..), ..} whose values are literals that each
 * fit their column exactly, stored without planning: Calcite turns such a statement into a union
 * of one projection per row and compiles Java for it, which took seconds for a thousand rows and
 * failed beyond a few thousand (the generated method outgrew 64 KB). The rows go to one
 * Appender (or the running {@link InsertBatch}) and are published at once, so a refused row
 * stores none. A statement with any other value (an expression, a cast, a number with more
 * digits than its DECIMAL column keeps, a string longer than its column, a NULL for a NOT NULL
 * column) is left to the planner, whose conversions and errors it keeps.
 */
public final class LiteralInsert {
    private final Database database;
    private final Table table;
    private final List<Object[]> rows;
    /**
     * The identity columns the rows leave out: numbered at each run, not when the statement is
     * recognized, so that a prepared INSERT run twice stores two numbers, not the same one again.
     */
    private final int[] numbered;

    private LiteralInsert(Database database, Table table, List<Object[]> rows, int[] numbered) {
        this.database = database;
        this.table = table;
        this.rows = rows;
        this.numbered = numbered;
    }

    /**
     * The literal rows of {@code sql} for a table of {@code database}, or null where the planner
     * must run it; a name without schema is in the schema of {@code schemaPath}, the connection's
     * default. A TIMESTAMP WITH TIME ZONE written without an offset is read in
     * {@code zone}, the session's.
     */
    public static LiteralInsert recognize(String sql, Database database, List<String> schemaPath, ZoneId zone) {
        if (Upsert.isPlanning()) {
            return null; // an upsert's rows go to ModifyTarget, which hands them to the Upsert
        }
        ValuesInsert insert = ValuesInsert.parse(sql, database, schemaPath.size() == 1 ? schemaPath.getFirst() : null);
        if (insert == null) {
            return null;
        }
        TableSchema schema = insert.table().schema();
        int[] columns = insert.columns();
        // a column the statement does not name takes its DEFAULT, else NULL: it must allow that
        boolean[] named = new boolean[schema.size()];
        for (int c : columns) {
            named[c] = true;
        }
        List<Integer> defaulted = new ArrayList<>();
        for (int c = 0; c < named.length; c++) {
            if (!named[c] && !schema.column(c).nullable() && !schema.column(c).hasDefault()) {
                return null;
            }
            if (!named[c] && schema.column(c).defaultExpression()) {
                return null; // only the planner evaluates a DEFAULT expression (per row or per statement, as it says)
            }
            if (!named[c] && schema.column(c).hasDefault()) {
                defaulted.add(c);
            }
        }
        List<Object[]> rows = new ArrayList<>(insert.rows().size());
        for (SqlNode operand : insert.rows()) {
            SqlBasicCall row = insert.row(operand);
            if (row == null) {
                return null;
            }
            Object[] stored = new Object[schema.size()];
            for (int i = 0; i < columns.length; i++) {
                TableSchema.ColumnDef column = schema.column(columns[i]);
                if (column.identity() != null && column.identity().always() && row.operand(i).getKind() != SqlKind.DEFAULT) {
                    throw new IdentityViolationException("cannot insert a non-DEFAULT value into column \"" + column.name()
                            + "\" of relation \"" + insert.table().name() + "\": it is GENERATED ALWAYS AS IDENTITY", null);
                }
                Object value = value(row.operand(i), column.type(), zone);
                if (value instanceof OutOfRange(BigDecimal number)) {
                    // the planner's validator would say only "Value 40000 out of range"; a REAL's 1E+39 keeps its exponent
                    String shown = number.scale() < -20 ? number.toString() : number.toPlainString();
                    throw new IllegalArgumentException("row " + (rows.size() + 1) + " of table " + insert.table().name()
                            + ": column " + column.name() + ": value " + shown + " is out of range for " + column.type());
                }
                if (value == NO_FIT || (value == null && !column.nullable())) {
                    return null;
                }
                stored[columns[i]] = value;
            }
            rows.add(stored);
        }
        for (int c : defaulted) {
            TableSchema.ColumnDef column = schema.column(c);
            if (column.identity() == null) {
                Object value = Appender.valueOfText(column, column.literalDefault(), zone);
                for (Object[] row : rows) {
                    row[c] = value;
                }
            }
        }
        int[] numbered = defaulted.stream().mapToInt(Integer::intValue).filter(c -> schema.column(c).identity() != null).toArray();
        return new LiteralInsert(database, insert.table(), rows, numbered);
    }

    /** Marks a value that does not fit its column exactly. */
    private static final Object NO_FIT = new Object();

    /** A whole number beyond its integer column's range: the statement fails, naming it. */
    private record OutOfRange(BigDecimal value) {
    }

    /** {@code node} as the Java value its column stores, null for NULL, or {@link #NO_FIT}. */
    private static Object value(SqlNode node, ColumnType type, ZoneId zone) {
        boolean negative = node instanceof SqlBasicCall minus && minus.getKind() == SqlKind.MINUS_PREFIX
                && minus.operand(0) instanceof SqlNumericLiteral;
        SqlNode operand = negative ? ((SqlBasicCall) node).operand(0) : node;
        if (!(operand instanceof SqlLiteral literal)) {
            return NO_FIT;
        }
        if (literal instanceof SqlNumericLiteral n) {
            BigDecimal v = n.getValueAs(BigDecimal.class);
            return number(negative ? v.negate() : v, n.isExact(), type);
        }
        if (literal.getTypeName() == SqlTypeName.NULL || literal.getValue() == null) {
            return null; // NULL, or UNKNOWN
        }
        return switch (type.codec()) {
            case BooleanCodec _ -> literal.getTypeName() == SqlTypeName.BOOLEAN ? literal.booleanValue() : NO_FIT;
            case IntegralCodec _, DecimalCodec _, StoredAsDouble _ -> NO_FIT; // not a number
            case DateCodec _ -> literal instanceof SqlCharStringLiteral chars ? parsed(chars, SqlTypeName.DATE, LocalDate::parse) : date(literal);
            case TimestampCodec _ -> literal instanceof SqlCharStringLiteral chars
                    ? parsed(chars, SqlTypeName.TIMESTAMP, s -> LocalDateTime.parse(s.replace(' ', 'T'))) : timestamp(literal);
            case TimestampTzCodec _ -> instant(literal, type, zone);
            case TimeCodec _ -> literal instanceof SqlCharStringLiteral chars ? parsed(chars, SqlTypeName.TIME, LocalTime::parse) : time(literal);
            case CharCodec _, VarcharCodec _ -> {
                if (!(literal instanceof SqlCharStringLiteral chars)) {
                    yield NO_FIT;
                }
                String s = chars.getValueAs(String.class);
                yield s.codePointCount(0, s.length()) <= type.length() ? s : NO_FIT;
            }
            case VarbinaryCodec _ -> {
                if (!(literal instanceof SqlBinaryStringLiteral binary)) {
                    yield NO_FIT;
                }
                byte[] bytes = binary.getValueAs(BitString.class).getAsByteArray();
                yield bytes.length <= type.length() ? bytes : NO_FIT;
            }
            case UuidCodec _ -> uuid(literal, type);
        };
    }

    /** {@code UUID '..'} or a string literal as a UUID's text; NO_FIT when it is none (the planner says why). */
    private static Object uuid(SqlLiteral literal, ColumnType type) {
        String text = literal instanceof SqlUnknownLiteral unknown && unknown.tag.equalsIgnoreCase("UUID") ? unknown.getValue()
                : literal instanceof SqlCharStringLiteral chars ? chars.getValueAs(String.class) : null;
        if (text == null) {
            return NO_FIT;
        }
        try {
            return type.toStringValue(text);
        } catch (IllegalArgumentException e) {
            return NO_FIT;
        }
    }

    /**
     * A string literal for a DATE, TIMESTAMP or TIME column, as the planner's cast reads it (see
     * {@link TimeLiterals#calciteText}); NO_FIT when it is no such value (the planner says why).
     */
    private static Object parsed(SqlCharStringLiteral literal, SqlTypeName type, Function<String, Object> parser) {
        String text = literal.getValueAs(String.class);
        String whole = TimeLiterals.calciteText(text, type);
        try {
            return parser.apply(whole != null ? whole : text.strip());
        } catch (DateTimeParseException e) {
            return NO_FIT;
        }
    }

    /** A DATE literal's day. */
    private static Object date(SqlLiteral literal) {
        return typed(literal, SqlTypeName.DATE) instanceof SqlDateLiteral date
                ? LocalDate.parse(date.getValueAs(DateString.class).toString()) : NO_FIT;
    }

    /** A TIMESTAMP literal's wall-clock time, all its fraction digits (the column keeps what its precision does). */
    private static Object timestamp(SqlLiteral literal) {
        return typed(literal, SqlTypeName.TIMESTAMP) instanceof SqlTimestampLiteral t
                ? LocalDateTime.parse(t.getValueAs(TimestampString.class).toString().replace(' ', 'T')) : NO_FIT;
    }

    /**
     * A string literal (with its offset or zone, else in the session's zone) or a TIMESTAMP
     * literal (a wall clock in the session's zone) as the instant it names; NO_FIT for anything
     * else, or text that names none (the planner says why).
     */
    private static Object instant(SqlLiteral literal, ColumnType type, ZoneId zone) {
        Object value = literal instanceof SqlCharStringLiteral chars ? chars.getValueAs(String.class) : timestamp(literal);
        if (value == NO_FIT) {
            return NO_FIT;
        }
        try {
            return Instant.ofEpochMilli(type.toLong(value, zone));
        } catch (IllegalArgumentException e) {
            return NO_FIT;
        }
    }

    /** A TIME literal's time of day, all its fraction digits (the column keeps what its precision does). */
    private static Object time(SqlLiteral literal) {
        return typed(literal, SqlTypeName.TIME) instanceof SqlTimeLiteral t
                ? LocalTime.parse(t.getValueAs(TimeString.class).toString()) : NO_FIT;
    }

    /**
     * The parser leaves {@code DATE '..'}, {@code TIME '..'} and {@code TIMESTAMP '..'} untyped
     * until validation: such a literal of {@code type} resolved, null when its text is no such
     * value (the planner says so); any other literal as it is.
     */
    private static SqlLiteral typed(SqlLiteral literal, SqlTypeName type) {
        if (literal instanceof SqlUnknownLiteral unknown && unknown.tag.equalsIgnoreCase(type.getName())) {
            try {
                return unknown.resolve(type);
            } catch (RuntimeException e) {
                return null;
            }
        }
        return literal;
    }

    /**
     * A number as its column stores it, where it fits without rounding: an exact literal the
     * validator takes (38 digits, 19 after the point) into any numeric column, an approximate
     * one into DOUBLE or REAL (rounded to their precision, as a cast does).
     */
    private static Object number(BigDecimal v, boolean exact, ColumnType type) {
        if (exact) {
            BigDecimal digits = v.stripTrailingZeros();
            if (digits.precision() > 38 || digits.scale() > 19) {
                return NO_FIT; // the validator says it is out of range
            }
        }
        return switch (type.codec()) {
            case DoubleCodec _ -> {
                double d = v.doubleValue();
                yield Double.isFinite(d) ? (Object) d : NO_FIT;
            }
            case RealCodec _ -> {
                float f = v.floatValue();
                yield Float.isFinite(f) ? (Object) f : new OutOfRange(v); // a cast would make it infinite
            }
            case IntegralCodec _ -> exact ? exactInteger(v, type) : NO_FIT;
            case DecimalCodec _ -> exact ? exactDecimal(v, type) : NO_FIT;
            case BooleanCodec _, DateCodec _, TimestampCodec _, TimestampTzCodec _, TimeCodec _, StoredAsString _ -> NO_FIT;
        };
    }

    /** An exact number as an integer column stores it, where it fits without rounding. */
    private static Object exactInteger(BigDecimal v, ColumnType type) {
        BigDecimal whole = v.signum() == 0 ? BigDecimal.ZERO : v.stripTrailingZeros();
        if (whole.scale() > 0) {
            return NO_FIT; // the planner rounds it, as a cast does
        }
        if (whole.precision() - whole.scale() > 19) {
            return new OutOfRange(v);
        }
        long l = whole.longValue();
        boolean fits = whole.compareTo(BigDecimal.valueOf(l)) == 0 && type.holds(l);
        return fits ? (Object) l : new OutOfRange(v);
    }

    /** An exact number as a DECIMAL column stores it, where it fits without rounding. */
    private static Object exactDecimal(BigDecimal v, ColumnType type) {
        BigDecimal whole = v.signum() == 0 ? BigDecimal.ZERO : v.stripTrailingZeros();
        if (Math.max(whole.scale(), 0) > type.scale()) {
            return NO_FIT;
        }
        BigDecimal scaled = whole.setScale(type.scale());
        return scaled.precision() <= type.precision() ? scaled : NO_FIT;
    }

    /**
     * The statement as Calcite's prepared form: each execution stores the rows (all at once or
     * none; a statement's cancel or timeout stops a wait for another change of the table) and
     * answers their number, as a planned INSERT does.
     */
    public CalciteSignature<Object> signature(String sql, JavaTypeFactory typeFactory, CalciteSchema rootSchema) {
        RelDataType rowType = typeFactory.builder().add("ROWCOUNT", SqlTypeName.BIGINT).build();
        ColumnMetaData.AvaticaType type = ColumnMetaData.scalar(Types.BIGINT, "BIGINT", ColumnMetaData.Rep.PRIMITIVE_LONG);
        List<ColumnMetaData> columns = List.of(new ColumnMetaData(0, false, true, false, false, DatabaseMetaData.columnNoNulls,
                true, 19, "ROWCOUNT", null, null, 19, 0, null, null, type, true, false, false, type.columnClassName()));
        Bindable<Object> run = root -> Linq4j.singletonEnumerable(run(QueryCancel.of(root)));
        return new CalciteSignature<>(sql, List.of(), Map.of(), rowType, columns, Meta.CursorFactory.deduce(columns, null),
                rootSchema, List.of(), -1, run, Meta.StatementType.INSERT);
    }

    /** Stores the rows, all at once or none, unless {@code cancel} stops a wait for another change of the table; the number of rows. */
    private long run(QueryCancel cancel) {
        if (database.catalog().find(table.schemaName(), table.name()).orElse(null) != table) {
            throw new IllegalStateException("table " + table.name() + " was dropped or replaced since this INSERT was prepared: "
                    + "prepare it again");
        }
        List<Object[]> rows = this.rows;
        if (numbered.length > 0) {
            rows = new ArrayList<>(this.rows.size());
            for (Object[] literal : this.rows) {
                Object[] row = literal.clone();
                for (int c : numbered) {
                    row[c] = table.schema().column(c).identity().sequence().next();
                }
                rows.add(row);
            }
        }
        for (Object[] row : rows) {
            ChangedRows.stored(table, row);
        }
        InsertBatch batch = InsertBatch.current();
        if (batch == null) {
            return database.appender(table).stoppedBy(cancel::check).appendAll(rows);
        }
        // the batch discards everything on failure
        Appender appender = batch.appender(database, table);
        for (Object[] row : rows) {
            appender.append(row);
        }
        return rows.size();
    }
}
