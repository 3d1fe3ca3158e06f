package io.numacol.tpch;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.fail;

/**
 * How two engines' answers to a query are compared.
 *
 * <p>Values: strings lose trailing blanks (CHAR padding differs between engines); dates compare as
 * {@link LocalDate}; exact numbers (integers, DECIMAL) compare by value whatever their scale;
 * two doubles agree within 1e-9 relative; a DECIMAL and a double (numacol divides and averages in
 * DECIMAL with 6 fraction digits, DuckDB in DOUBLE) agree within 1e-9 relative or 1e-6 absolute,
 * one unit in the sixth fraction digit: finer than TPC-H's check of averages to 1/100, and a
 * DECIMAL average cut to the argument's 2 digits (0.04 for 0.0499...) fails.
 *
 * <p>Order: the rows of a query without ORDER BY compare as multisets. With ORDER BY, the order key
 * columns must agree row by row, and the rows within each run of equal keys (ties, which either
 * engine may return in any order) compare as multisets.
 */
public final class ResultComparison {
    private static final double RELATIVE = 1e-9;
    /** One unit in the sixth fraction digit, with room for the double's own rounding. */
    private static final double DECIMAL_QUOTIENT = 1e-6 * (1 + RELATIVE);

    private ResultComparison() {
    }

    public static List<List<Object>> rows(Connection connection, String sql) throws SQLException {
        List<List<Object>> out = new ArrayList<>();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>(n);
                for (int i = 1; i <= n; i++) {
                    row.add(switch (rs.getMetaData().getColumnType(i)) {
                        // java.sql.Time has no milliseconds to show: a TIME is read as a LocalTime
                        case Types.TIME -> rs.getObject(i, LocalTime.class);
                        // an instant: DuckDB's getObject is an OffsetDateTime, numacol's a Timestamp
                        case Types.TIMESTAMP_WITH_TIMEZONE -> instant(rs, i);
                        // a byte[] has no equals, DuckDB's BLOB no bytes of its own: both as hex text
                        case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> hex(rs.getBytes(i));
                        default -> normalise(rs.getObject(i));
                    });
                }
                out.add(row);
            }
        }
        return out;
    }

    public static void assertSameResult(List<List<Object>> actual, List<List<Object>> expected, int[] orderKeys) {
        if (actual.size() != expected.size()) {
            fail("%d rows instead of %d%nactual:   %s%nexpected: %s", actual.size(), expected.size(),
                    head(actual), head(expected));
        }
        int start = 0;
        while (start < expected.size()) {
            int end = start + 1;
            if (orderKeys.length == 0) {
                end = expected.size();
            } else {
                while (end < expected.size() && sameKeys(expected.get(start), expected.get(end), orderKeys)) {
                    end++;
                }
                for (int i = start; i < end; i++) {
                    if (!sameKeys(actual.get(i), expected.get(i), orderKeys)) {
                        fail("row %d: order keys differ%nactual:   %s%nexpected: %s", i, actual.get(i), expected.get(i));
                    }
                }
            }
            assertSameMultiset(actual.subList(start, end), expected.subList(start, end), start);
            start = end;
        }
    }

    private static void assertSameMultiset(List<List<Object>> actual, List<List<Object>> expected, int offset) {
        List<List<Object>> unmatched = new ArrayList<>(expected);
        for (List<Object> row : actual) {
            int match = -1;
            for (int i = 0; i < unmatched.size() && match < 0; i++) {
                if (sameRow(row, unmatched.get(i))) {
                    match = i;
                }
            }
            if (match < 0) {
                fail("rows from %d: %s has no counterpart among%n%s", offset, row, head(unmatched));
            }
            unmatched.remove(match);
        }
    }

    private static boolean sameKeys(List<Object> a, List<Object> b, int[] keys) {
        for (int key : keys) {
            if (!same(a.get(key - 1), b.get(key - 1))) {
                return false;
            }
        }
        return true;
    }

    private static boolean sameRow(List<Object> a, List<Object> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!same(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    public static boolean same(Object a, Object b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a instanceof Number x && b instanceof Number y) {
            return sameNumber(x, y);
        }
        return a.equals(b);
    }

    private static boolean sameNumber(Number a, Number b) {
        boolean aExact = !(a instanceof Double || a instanceof Float);
        boolean bExact = !(b instanceof Double || b instanceof Float);
        if (aExact && bExact) {
            return exact(a).compareTo(exact(b)) == 0;
        }
        double x = a.doubleValue();
        double y = b.doubleValue();
        if (Math.abs(x - y) <= RELATIVE * Math.max(Math.abs(x), Math.abs(y))) {
            return true;
        }
        // A DECIMAL quotient is cut at its 6th fraction digit: one unit there is as close as it gets.
        boolean decimal = a instanceof BigDecimal || b instanceof BigDecimal;
        return decimal && Math.abs(x - y) <= DECIMAL_QUOTIENT;
    }

    private static BigDecimal exact(Number n) {
        return n instanceof BigDecimal d ? d : new BigDecimal(n.toString());
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
        return value == null ? null : value.toInstant();
    }

    private static String hex(byte[] bytes) {
        return bytes == null ? null : "X'" + HexFormat.of().formatHex(bytes) + "'";
    }

    private static Object normalise(Object value) {
        return switch (value) {
            case null -> null;
            case String s -> s.stripTrailing();
            case Date d -> d.toLocalDate();
            case Timestamp t -> t.toLocalDateTime();
            default -> value;
        };
    }

    private static String head(List<List<Object>> rows) {
        return rows.size() <= 5 ? rows.toString() : rows.subList(0, 5) + " ... (" + rows.size() + " rows)";
    }
}
