package io.numacol.calcite.dml;

import io.numacol.calcite.PostgresFunctions;
import io.numacol.calcite.QueryCancel;
import io.numacol.calcite.ddl.TimeLiterals;
import io.numacol.storage.types.ColumnType;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.avatica.util.DateTimeUtils;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.TimestampString;

import java.math.BigDecimal;
import java.time.ZoneId;
import java.util.List;
import java.util.function.Supplier;

/**
 * Calcite's RexBuilder, except that a CAST of a character literal that cannot succeed fails
 * while the statement is converted, naming the value. Calcite folds such casts at once: it would
 * silently cut {@code 'toolong'} to fit VARCHAR(3) (the SQL standard calls that an error, "string
 * data, right truncation"), and a bad DATE or number would fail only inside generated code with
 * a message that names nothing. A string cast to a UUID is read as a column reads it. The
 * length checks (of strings and of binary literals) apply to INSERT only (see
 * {@link #assigning}); a bad DATE or number would fail anyway, here it fails early and clearly.
 * Casts between instants, wall clocks and text, EXTRACT from an instant and an instant plus an
 * interval are numacol's functions, which compute in the session's zone ({@link TimeCasts}).
 */
public final class CheckedCastRexBuilder extends RexBuilder {
    /**
     * How many INSERT conversions are under way on this builder (one statement's): only there is
     * a cut string an assignment. Planner rules also cast literals, e.g. {@code name = 'toolongvalue'}
     * makes CAST('toolongvalue' AS VARCHAR(5)), and must not fail.
     */
    private int assignments;

    private static final ColumnType UUIDS = ColumnType.uuid();
    /** The session's zone, in which a string without an offset names an instant. */
    private final ZoneId zone;

    public CheckedCastRexBuilder(RelDataTypeFactory typeFactory, ZoneId zone) {
        super(typeFactory);
        this.zone = zone;
    }

    @Override
    public RexNode makeCast(SqlParserPos pos, RelDataType type, RexNode exp, boolean matchNullability, boolean safe,
                            RexLiteral format) {
        if (!safe && exp instanceof RexLiteral literal && !literal.isNull()
                && SqlTypeName.CHAR_TYPES.contains(literal.getType().getSqlTypeName())) {
            String value = literal.getValueAs(String.class);
            String whole = TimeLiterals.calciteText(value, type.getSqlTypeName());
            if (whole != null) {
                value = whole;
                exp = makeLiteral(whole);
            }
            check(value, type);
            if (type.getSqlTypeName() == SqlTypeName.UUID) {
                // as a column reads it (braces, no hyphens, blanks), which java.util.UUID.fromString does not
                exp = makeLiteral(uuid(value));
            }
            if (type.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
                // Calcite's cast wants 'yyyy-mm-dd hh:mm:ss zone'; a column reads offsets and the session's zone
                exp = instantLiteral(value, type);
            }
        } else if (!safe && exp instanceof RexLiteral literal && !literal.isNull()
                && literal.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP
                && type.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
            // a wall-clock time in the session's zone; Calcite's planner folds this cast in another zone
            exp = instantLiteral(ColumnType.wallClock(literal.getValueAs(Long.class)), type);
        }
        if (!safe && type.getSqlTypeName() == SqlTypeName.BOOLEAN && SqlTypeName.CHAR_TYPES.contains(exp.getType().getSqlTypeName())) {
            // PostgreSQL's words for a truth value (yes, no, on, off, t, f, 1, 0...), where Calcite's cast takes TRUE and FALSE only
            RelDataType types = matchNullability ? getTypeFactory().createTypeWithNullability(type, exp.getType().isNullable()) : type;
            return makeCall(types, PostgresFunctions.TEXT_BOOLEAN, List.of(exp));
        }
        if (!safe && !(exp instanceof RexLiteral literal && literal.getType().getSqlTypeName() == type.getSqlTypeName())) {
            RexNode cast = TimeCasts.cast(this, type, exp, matchNullability, zone);
            if (cast != null) {
                return cast;
            }
        }
        if (!safe && exp instanceof RexLiteral literal && !literal.isNull() && assignments > 0
                && SqlTypeName.BINARY_TYPES.contains(literal.getType().getSqlTypeName())
                && SqlTypeName.BINARY_TYPES.contains(type.getSqlTypeName()) && type.getPrecision() != RelDataType.PRECISION_NOT_SPECIFIED) {
            ByteString bytes = literal.getValueAs(ByteString.class);
            if (bytes.length() > type.getPrecision()) {
                throw new IllegalArgumentException("value X'" + (bytes.length() > 20 ? bytes.substring(0, 20).toString() + "..."
                        : bytes.toString()) + "' (" + bytes.length() + " bytes) is longer than "
                        + type.getFullTypeString().replace(" NOT NULL", "") + " allows");
            }
        }
        return super.makeCast(pos, type, exp, matchNullability, safe, format);
    }

    /** Calls made, to stop a statement being planned every {@link QueryCancel#CHECK_MASK} + 1 of them. */
    private int calls;

    /**
     * Stops the planning of a canceled statement, or one past its timeout: converting and
     * simplifying 100,000 IN-list elements makes as many calls, and Calcite polls nothing there.
     */
    private void checkStop() {
        if ((++calls & QueryCancel.CHECK_MASK) == 0) {
            QueryCancel.current().check();
        }
    }

    /**
     * EXTRACT from an instant, from its wall clock in the session's zone, an instant plus or
     * minus an interval, and date_trunc, by numacol's functions (see {@link TimeCasts}).
     */
    @Override
    public RexNode makeCall(SqlParserPos pos, RelDataType returnType, SqlOperator op, List<RexNode> exprs) {
        checkStop();
        if (op.getKind() == SqlKind.EXTRACT && exprs.size() == 2 && exprs.get(0) instanceof RexLiteral unit) {
            RexNode wall = TimeCasts.extractOperand(this, exprs.get(1), unit.getValue() == TimeUnitRange.EPOCH, zone);
            if (wall != null) {
                return super.makeCall(pos, returnType, op, List.of(unit, wall));
            }
        }
        if (op == TimeCasts.DATE_TRUNC && exprs.size() == 2) {
            return TimeCasts.dateTrunc(this, returnType, exprs, zone);
        }
        RexNode plus = TimeCasts.plusInterval(this, returnType, op.getKind(), exprs, zone);
        return plus != null ? plus : super.makeCall(pos, returnType, op, exprs);
    }

    @Override
    public RexNode makeCall(SqlParserPos pos, SqlOperator op, List<? extends RexNode> exprs) {
        checkStop();
        if (op.getKind() == SqlKind.EXTRACT || op.getKind() == SqlKind.PLUS || op.getKind() == SqlKind.MINUS) {
            return makeCall(pos, deriveReturnType(op, exprs), op, List.copyOf(exprs));
        }
        return super.makeCall(pos, op, exprs);
    }

    /** Text or a wall-clock time, read in the session's zone as a column of {@code type} reads it, as an instant literal. */
    private RexLiteral instantLiteral(Object value, RelDataType type) {
        int precision = type.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED ? ColumnType.MAX_TIMESTAMP_PRECISION
                : Math.min(type.getPrecision(), ColumnType.MAX_TIMESTAMP_PRECISION);
        long millis;
        try {
            millis = ColumnType.timestampTz(precision).toLong(value, zone);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("value " + e.getMessage(), e); // it names the value, and the zone read
        }
        return makeTimestampWithLocalTimeZoneLiteral(TimestampString.fromMillisSinceEpoch(millis), precision);
    }

    /** Converts an INSERT with string literals checked as assignments to their columns. */
    public static RelNode assigning(RexBuilder builder, Supplier<RelNode> conversion) {
        if (!(builder instanceof CheckedCastRexBuilder checked)) {
            return conversion.get();
        }
        checked.assignments++;
        try {
            return conversion.get();
        } finally {
            checked.assignments--;
        }
    }

    private void check(String value, RelDataType type) {
        SqlTypeName target = type.getSqlTypeName();
        if (SqlTypeName.CHAR_TYPES.contains(target) && type.getPrecision() != RelDataType.PRECISION_NOT_SPECIFIED
                && value.codePointCount(0, value.length()) > type.getPrecision()
                && !value.substring(value.offsetByCodePoints(0, type.getPrecision())).isBlank()
                && assignments > 0) {
            throw new IllegalArgumentException("value " + quoted(value) + " is longer than " + type.getFullTypeString()
                    .replace(" NOT NULL", "") + " allows");
        }
        if (target == SqlTypeName.DATE) {
            try {
                DateTimeUtils.dateStringToUnixDate(value.trim());
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("value " + quoted(value) + " is not a valid DATE (expected yyyy-mm-dd)");
            }
        }
        if (target == SqlTypeName.TIMESTAMP) {
            try {
                DateTimeUtils.timestampStringToUnixDate(value.trim());
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("value " + quoted(value) + " is not a valid TIMESTAMP (expected"
                        + " yyyy-mm-dd hh:mm:ss[.fff])");
            }
        }
        if (target == SqlTypeName.TIME) {
            try {
                DateTimeUtils.timeStringToUnixDate(value.trim());
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("value " + quoted(value) + " is not a valid TIME (expected hh:mm:ss[.fff])");
            }
        }
        if (target == SqlTypeName.UUID) {
            uuid(value);
        }
        if (SqlTypeName.NUMERIC_TYPES.contains(target)) {
            try {
                if (SqlTypeName.APPROX_TYPES.contains(target)) {
                    ColumnType.parseApproximate(value); // the parser COPY uses too
                } else {
                    new BigDecimal(value.trim());
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("value " + quoted(value) + " is not a number, as " + target + " requires");
            }
        }
    }

    /** A UUID's canonical text; IllegalArgumentException naming the value when it is no UUID. */
    private static String uuid(String value) {
        return UUIDS.toStringValue(value);
    }

    private static String quoted(String value) {
        return "'" + (value.length() > 40 ? value.substring(0, 40) + "..." : value) + "'";
    }
}
