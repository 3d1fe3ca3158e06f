package io.numacol.jdbc;

import java.sql.Types;
import java.util.regex.Pattern;

/**
 * A column's type as {@code DatabaseMetaData.getColumns} describes it, by the JDBC spec's table:
 * {@code TYPE_NAME} the bare name (BIGINT, DECIMAL, VARCHAR, TIMESTAMP WITH TIME ZONE: Calcite
 * gave its full type string, {@code BIGINT NOT NULL}, {@code DECIMAL(12, 2)}, which tools compare
 * against {@code getTypeInfo}'s names and read parameters from {@code COLUMN_SIZE} instead), {@code
 * COLUMN_SIZE} the precision of a number, the length of a string, the chars of a datetime's literal
 * form at the column's fraction digits, {@code DECIMAL_DIGITS} a number's scale or a datetime's
 * fraction digits. Calcite gave -1 for BIGINT and DATE and the fraction digits (3) for a TIMESTAMP.
 *
 * @param typeName       TYPE_NAME
 * @param columnSize     COLUMN_SIZE, null where it does not apply (an interval)
 * @param decimalDigits  DECIMAL_DIGITS, null where it does not apply
 * @param numPrecRadix   NUM_PREC_RADIX: 2 for the binary floating types, whose size is in bits, else 10
 * @param charOctetLength CHAR_OCTET_LENGTH: a string's bytes at most (4 per char in UTF-8), else null
 */
record ColumnDescription(String typeName, Integer columnSize, Integer decimalDigits, int numPrecRadix, Integer charOctetLength) {
    /** A parameter list, {@code (12, 2)} or {@code (3)}, anywhere in Calcite's type string. */
    private static final Pattern PARAMETERS = Pattern.compile("\\s*\\(\\s*-?\\d+\\s*(,\\s*-?\\d+\\s*)?\\)");
    /** What follows the name in Calcite's full type string: a character set, a collation, NOT NULL. */
    private static final Pattern DETAIL = Pattern.compile("\\s+(CHARACTER SET|COLLATE|NOT NULL)\\b.*$");
    /** The chars of {@code yyyy-mm-dd hh:mm:ss} and of {@code hh:mm:ss}. */
    private static final int TIMESTAMP_CHARS = 19;
    private static final int TIME_CHARS = 8;
    /** The chars of an offset, {@code +hh:mm}. */
    private static final int OFFSET_CHARS = 6;
    /** The chars of a UUID's text, 8-4-4-4-12 hex digits. */
    private static final int UUID_CHARS = 36;

    /**
     * The description of a column of JDBC type {@code dataType} whose Calcite type string is
     * {@code calciteName}, of {@code precision} (digits, length or fraction digits; -1 if none)
     * and {@code scale}.
     */
    static ColumnDescription of(int dataType, String calciteName, int precision, Integer scale) {
        String name = bareName(dataType, calciteName);
        Integer known = precision < 0 ? null : precision;
        return switch (dataType) {
            case Types.BOOLEAN -> new ColumnDescription(name, 1, null, 10, null);
            case Types.TINYINT -> new ColumnDescription(name, 3, 0, 10, null);
            case Types.SMALLINT -> new ColumnDescription(name, 5, 0, 10, null);
            case Types.INTEGER -> new ColumnDescription(name, 10, 0, 10, null);
            case Types.BIGINT -> new ColumnDescription(name, 19, 0, 10, null);
            case Types.REAL -> new ColumnDescription(name, 24, null, 2, null);
            case Types.FLOAT, Types.DOUBLE -> new ColumnDescription(name, 53, null, 2, null);
            case Types.DECIMAL, Types.NUMERIC -> new ColumnDescription(name, known, scale == null ? 0 : scale, 10, null);
            case Types.DATE -> new ColumnDescription(name, 10, 0, 10, null);
            case Types.TIME -> new ColumnDescription(name, TIME_CHARS + fraction(precision), Math.max(0, precision), 10, null);
            case Types.TIMESTAMP -> new ColumnDescription(name, TIMESTAMP_CHARS + fraction(precision), Math.max(0, precision), 10, null);
            case Types.TIMESTAMP_WITH_TIMEZONE -> new ColumnDescription(name, TIMESTAMP_CHARS + fraction(precision) + OFFSET_CHARS,
                    Math.max(0, precision), 10, null);
            case Types.CHAR, Types.VARCHAR -> new ColumnDescription(name, known, null, 10,
                    known == null ? null : (int) Math.min(Integer.MAX_VALUE, 4L * known));
            case Types.BINARY, Types.VARBINARY -> new ColumnDescription(name, known, null, 10, null);
            default -> new ColumnDescription(name, name.equals("UUID") ? UUID_CHARS : null, null, 10, null);
        };
    }

    /** The chars of a fraction of {@code digits} digits and its point; none for 0. */
    private static int fraction(int digits) {
        return digits > 0 ? digits + 1 : 0;
    }

    /** The type's name without its parameters, character set, collation and NOT NULL; an instant named as JDBC names it. */
    static String bareName(int dataType, String calciteName) {
        if (dataType == Types.TIMESTAMP_WITH_TIMEZONE) {
            return InstantMetaData.TYPE_NAME;
        }
        String name = DETAIL.matcher(calciteName).replaceFirst("");
        return PARAMETERS.matcher(name).replaceAll("").strip();
    }
}
