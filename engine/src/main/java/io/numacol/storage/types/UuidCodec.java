package io.numacol.storage.types;

import java.sql.JDBCType;
import java.time.ZoneId;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * UUID: stored as its 36-character lowercase text, whose order is the unsigned order of the 128
 * bits, as in DuckDB and PostgreSQL (not java.util.UUID's signed compareTo); read back as a
 * java.util.UUID.
 */
public final class UuidCodec implements StoredAsString {
    public static final UuidCodec INSTANCE = new UuidCodec();

    /** A UUID's text: 32 hex digits, 8-4-4-4-12 with or without the hyphens, in braces or not. */
    private static final Pattern TEXT = Pattern.compile(
            "\\{?(\\p{XDigit}{8})-?(\\p{XDigit}{4})-?(\\p{XDigit}{4})-?(\\p{XDigit}{4})-?(\\p{XDigit}{12})}?");

    private UuidCodec() {
    }

    @Override
    public String name() {
        return "UUID";
    }

    @Override
    public TypeParameters parameters() {
        return TypeParameters.NONE;
    }

    /** OTHER, as PostgreSQL's driver reports a uuid: JDBC has no UUID type. */
    @Override
    public JDBCType jdbcType() {
        return JDBCType.OTHER;
    }

    @Override
    public Object valueOfText(ColumnType type, String text, ZoneId zone) {
        return text.strip();
    }

    /** A java.util.UUID, or a String of 32 hex digits, hyphens between the groups 8-4-4-4-12 or none, braces around them or none. */
    @Override
    public String toStringValue(ColumnType type, Object value) {
        return switch (value) {
            case UUID u -> u.toString();
            case String s -> {
                Matcher m = TEXT.matcher(s.strip());
                if (!m.matches()) {
                    throw new IllegalArgumentException(Describe.value(s) + " is not a valid UUID (expected 32 hex digits"
                            + " as 8-4-4-4-12, such as 123e4567-e89b-12d3-a456-426614174000)");
                }
                yield (m.group(1) + '-' + m.group(2) + '-' + m.group(3) + '-' + m.group(4) + '-' + m.group(5)).toLowerCase(Locale.ROOT);
            }
            default -> throw ValueErrors.wrongType(type, value, "a java.util.UUID or a String such as 123e4567-e89b-12d3-a456-426614174000");
        };
    }

    /** A java.util.UUID. */
    @Override
    public Object toJava(ColumnType type, String stored) {
        return UUID.fromString(stored);
    }
}
