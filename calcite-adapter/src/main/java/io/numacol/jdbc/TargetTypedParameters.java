package io.numacol.jdbc;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLType;
import java.sql.Types;
import java.time.temporal.Temporal;

/**
 * {@code setObject(index, value, targetSqlType)}, as Spring's {@code SqlParameterValue} and
 * {@code SimpleJdbcInsert} call it. Avatica converts the value to the target type itself and knows
 * no java.time class: a LocalDate with {@code Types.DATE} threw "Cannot convert from
 * java.time.LocalDate to long", unchecked, and "abc" with {@code Types.DATE} an
 * IllegalArgumentException without a message. A java.time value, a number, a string or a boolean
 * is set as it is instead, to be converted to the type the statement gives its parameter ({@link
 * ParameterValues}) with the checks a value without a target type gets, as JDBC 4.2's table of
 * setObject conversions allows (a number for a DECIMAL/NUMERIC target is made a decimal at the
 * scale given); any other value Avatica cannot convert is refused with an SQLDataException naming
 * the parameter, the value's class and the target type.
 */
final class TargetTypedParameters {
    private TargetTypedParameters() {
    }

    /** Whether {@code args} of a setObject are a value with a target type. */
    static boolean applies(String method, Object[] args) {
        return "setObject".equals(method) && args.length >= 3 && args[0] instanceof Integer && args[1] != null;
    }

    /**
     * Sets {@code args} (index, value, target type as a {@code java.sql.Types} number or an
     * SQLType, maybe a scale) on {@code p}: a java.time value, a number (a decimal at the scale
     * given, for a DECIMAL/NUMERIC target), a string or a boolean as it is; any other converted by
     * Avatica to the target type, whose number an SQLType gives (Avatica implements only the
     * setObject that takes a number).
     */
    static void set(PreparedStatement p, Object[] args) throws SQLException {
        int index = (Integer) args[0];
        int type = switch (args[2]) {
            case Integer number -> number;
            case SQLType sqlType when sqlType.getVendorTypeNumber() != null -> sqlType.getVendorTypeNumber();
            default -> throw new SQLFeatureNotSupportedException("setObject with the SQL type " + args[2]
                    + ", which has no java.sql.Types number: give one of java.sql.Types or JDBCType", "0A000");
        };
        Object value = args[1];
        if (value instanceof Temporal || value instanceof Number || value instanceof String || value instanceof Boolean) {
            // set as it is, to be converted, checked, to the type the statement gives its parameter
            // (ParameterValues): Avatica's own conversion casts a long to an int unchecked, makes a
            // double a BigDecimal of its binary value, and reads a date's text in the JVM's zone
            if (value instanceof Number n && (type == Types.DECIMAL || type == Types.NUMERIC)) {
                try {
                    value = decimal(n);
                    if (args.length == 4 && args[3] instanceof Integer scale) {
                        value = ((BigDecimal) value).setScale(scale, RoundingMode.HALF_UP);
                    }
                } catch (NumberFormatException | ArithmeticException e) { // NaN or an infinity has no decimal
                    throw refused(args, e);
                }
            }
            p.setObject(index, value);
            return;
        }
        try {
            // the four-argument form of Avatica's AvaticaSite does nothing: the scale only matters to numbers, set above
            p.setObject(index, value, type);
        } catch (RuntimeException e) { // Avatica's conversion failed, unchecked
            throw refused(args, e);
        }
    }

    /** A number as the decimal it shows: a double by its shortest decimal form, as a user wrote it. */
    private static BigDecimal decimal(Number n) {
        return switch (n) {
            case BigDecimal b -> b;
            case BigInteger b -> new BigDecimal(b);
            case Double d -> BigDecimal.valueOf(d);
            case Float f -> new BigDecimal(Float.toString(f));
            default -> BigDecimal.valueOf(n.longValue());
        };
    }

    /** The refusal of a value Avatica could not convert to the target type, {@code thrown} its cause. */
    static SQLException refused(Object[] args, Throwable thrown) {
        String target = switch (args[2]) {
            case Integer type -> name(type);
            case SQLType type -> type.getName();
            default -> String.valueOf(args[2]);
        };
        boolean datetime = target.startsWith("DATE") || target.startsWith("TIME");
        String value = String.valueOf(args[1]);
        value = value.length() > 40 ? value.substring(0, 40) + "..." : value;
        String message = "parameter " + args[0] + ": cannot convert " + args[1].getClass().getName() + " value '" + value
                + "' to " + target + (thrown.getMessage() == null ? "" : " (" + thrown.getMessage() + ")");
        // PostgreSQL's states: a datetime that does not parse, text that is no number, a value of a class with no conversion
        String state = datetime ? "22007" : args[1] instanceof String ? "22P02" : "22023";
        return new SQLDataException(message, state, thrown);
    }

    private static String name(int type) {
        try {
            return JDBCType.valueOf(type).getName();
        } catch (IllegalArgumentException e) {
            return "java.sql.Types " + type;
        }
    }
}
