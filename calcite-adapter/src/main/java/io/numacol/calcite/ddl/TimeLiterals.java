package io.numacol.calcite.ddl;

import org.apache.calcite.sql.type.SqlTypeName;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The TIMESTAMP and TIME texts numacol's SQL reads beyond Calcite's: its parser rewrites such
 * literals ({@link NumacolParserFactory}), and numacol's DML casts and literal INSERTs read such
 * strings the same way.
 */
public final class TimeLiterals {
    private static final Pattern DATE_ONLY = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final Pattern DATE_TIME = Pattern.compile("(\\d{4}-\\d{2}-\\d{2})[ T](\\d{1,2}:\\d{2})(:\\d{2}(?:\\.\\d*)?)?");
    private static final Pattern TIME_OF_DAY = Pattern.compile("\\d{1,2}:\\d{2}");

    private TimeLiterals() {
    }

    /**
     * The text of a TIMESTAMP or TIME as Calcite's parser and casts read it, or null when it is
     * so already or is no such value: DuckDB and PostgreSQL also read a date alone ({@code
     * 2024-01-01} is midnight), a time without seconds ({@code 10:30}) and a {@code T} between
     * date and time.
     */
    public static String calciteText(String text, SqlTypeName type) {
        String t = text.strip();
        String whole = null;
        if (type == SqlTypeName.TIMESTAMP) {
            Matcher m = DATE_TIME.matcher(t);
            whole = DATE_ONLY.matcher(t).matches() ? t + " 00:00:00"
                    : m.matches() ? m.group(1) + " " + twoDigitHour(m.group(2)) + (m.group(3) == null ? ":00" : m.group(3)) : null;
        } else if (type == SqlTypeName.TIME && TIME_OF_DAY.matcher(t).matches()) {
            whole = twoDigitHour(t) + ":00";
        }
        return whole == null || whole.equals(text) ? null : whole;
    }

    private static String twoDigitHour(String hoursAndMinutes) {
        return hoursAndMinutes.length() == 4 ? "0" + hoursAndMinutes : hoursAndMinutes;
    }
}
