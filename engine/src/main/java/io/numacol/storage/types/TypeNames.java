package io.numacol.storage.types;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The type-name parser: SQL's spelling of a column type, with the names each codec answers to
 * ({@link TypeCodec#name()}, {@link TypeCodec#aliases()}) and the few spellings of more than one
 * word or of a choice between types (DOUBLE PRECISION, BINARY VARYING, FLOAT(p), WITH TIME ZONE).
 */
public final class TypeNames {
    /** BINARY VARYING(n): group 1 the parameter list. */
    private static final Pattern BINARY_VARYING = Pattern.compile("(?i)\\s*BINARY\\s+VARYING\\s*(\\(.*)?");
    private static final Pattern DOUBLE_PRECISION = Pattern.compile("(?i)\\s*DOUBLE\\s+PRECISION\\s*");
    /**
     * TIME or TIMESTAMP[(p)] WITH[OUT] [LOCAL] TIME ZONE: group 1 the type and its parameter, group 2
     * WITH or WITHOUT, group 3 LOCAL (Calcite's spelling of an instant type).
     */
    private static final Pattern ZONED = Pattern.compile(
            "(?i)\\s*((?:TIMESTAMP|TIME)\\s*(?:\\(\\s*[+-]?\\d+\\s*\\))?)\\s+(WITH|WITHOUT)\\s+(LOCAL\\s+)?TIME\\s+ZONE\\s*");
    private static final Pattern SPEC =
            Pattern.compile("\\s*([A-Za-z][A-Za-z0-9]*)\\s*(?:\\(\\s*([+-]?\\d+)\\s*(?:,\\s*([+-]?\\d+)\\s*)?\\))?\\s*");
    /** Every one-word name and alias, upper case, to its kind. */
    private static final Map<String, ColumnType.Kind> NAMED = named();

    private TypeNames() {
    }

    private static Map<String, ColumnType.Kind> named() {
        Map<String, ColumnType.Kind> named = new LinkedHashMap<>();
        for (ColumnType.Kind kind : ColumnType.Kind.values()) {
            named.put(kind.codec().name(), kind);
            for (String alias : kind.codec().aliases()) {
                named.put(alias, kind);
            }
        }
        return Map.copyOf(named);
    }

    /**
     * Parses what {@link ColumnType#toString()} prints, case-insensitively and with optional blanks:
     * {@code BOOLEAN} (or {@code BOOL}), {@code TINYINT} (or {@code INT1}), {@code SMALLINT} (or
     * {@code INT2}), {@code INTEGER} (or {@code INT}, {@code INT4}), {@code BIGINT} (or {@code
     * INT8}), {@code REAL} (or {@code FLOAT4}, {@code FLOAT(p)} for p &lt;= 24), {@code DOUBLE} (or
     * {@code DOUBLE PRECISION}, {@code FLOAT8}, {@code FLOAT}, {@code FLOAT(p)} for p &gt; 24),
     * {@code DECIMAL(p)} or {@code DECIMAL(p,s)} (or {@code NUMERIC}; scale 0 when left out),
     * {@code DATE}, {@code TIMESTAMP} or {@code TIMESTAMP(p)} (or {@code DATETIME}, and either with
     * {@code WITHOUT TIME ZONE}), {@code TIMESTAMP[(p)] WITH TIME ZONE} (or {@code TIMESTAMPTZ}),
     * {@code TIME} or {@code TIME(p)} (also {@code WITHOUT TIME ZONE}), {@code CHAR(n)},
     * {@code VARCHAR(n)}, {@code VARBINARY(n)} (or {@code BINARY VARYING(n)}), {@code UUID}.
     */
    public static ColumnType parse(String spec) {
        Objects.requireNonNull(spec, "spec");
        if (DOUBLE_PRECISION.matcher(spec).matches()) {
            return ColumnType.doubleType();
        }
        Matcher zoned = ZONED.matcher(spec);
        if (zoned.matches()) {
            boolean timestamp = zoned.group(1).toUpperCase(Locale.ROOT).startsWith("TIMESTAMP");
            if (zoned.group(2).equalsIgnoreCase("WITHOUT")) {
                if (zoned.group(3) != null) {
                    throw bad(spec, "write WITHOUT TIME ZONE (or nothing)");
                }
                return parse(zoned.group(1));
            }
            if (!timestamp) {
                throw bad(spec, TimeCodec.WITH_TIME_ZONE_REFUSED);
            }
            return ColumnType.timestampTz(parse(zoned.group(1)).precision());
        }
        Matcher varying = BINARY_VARYING.matcher(spec);
        if (varying.matches()) {
            return parse("VARBINARY" + varying.group(1));
        }
        Matcher m = SPEC.matcher(spec);
        if (!m.matches()) {
            throw bad(spec, "expected a type name with optional parameters, such as INTEGER, VARCHAR(25) or DECIMAL(15,2)");
        }
        String name = m.group(1).toUpperCase(Locale.ROOT);
        Integer first = parameter(m.group(2), spec);
        Integer second = parameter(m.group(3), spec);
        switch (name) {
            case "FLOAT" -> {
                return floatType(first, second, spec);
            }
            case "TIMESTAMP_TZ" -> throw bad(spec, "unknown type TIMESTAMP_TZ: write TIMESTAMP WITH TIME ZONE or TIMESTAMPTZ");
            case "BINARY" -> throw bad(spec, "BINARY(n) would pad its values with zero bytes to n: use VARBINARY(n)");
            default -> {
            }
        }
        ColumnType.Kind kind = NAMED.get(name);
        if (kind == null) {
            throw bad(spec, "unknown type " + name + "; known: BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, REAL, DOUBLE,"
                    + " DECIMAL(p,s), DATE, TIMESTAMP(p), TIME(p), CHAR(n), VARCHAR(n), VARBINARY(n), UUID");
        }
        try {
            return kind.codec().parameters().of(kind, first, second);
        } catch (IllegalArgumentException e) {
            throw bad(spec, e.getMessage());
        }
    }

    /**
     * FLOAT and FLOAT(p) for 25 &lt;= p &lt;= 53 are DOUBLE, FLOAT(p) with fewer binary digits is REAL,
     * as in PostgreSQL (SQL leaves the choice to the implementation, at least p digits).
     */
    private static ColumnType floatType(Integer precision, Integer second, String spec) {
        if (second != null || (precision != null && (precision < 1 || precision > 53))) {
            throw bad(spec, "FLOAT takes one parameter, its binary digits from 1 to 53: FLOAT or FLOAT(p)");
        }
        return precision != null && precision <= 24 ? ColumnType.real() : ColumnType.doubleType();
    }

    private static Integer parameter(String digits, String spec) {
        if (digits == null) {
            return null;
        }
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw bad(spec, "parameter " + digits + " is too large");
        }
    }

    private static IllegalArgumentException bad(String spec, String why) {
        return new IllegalArgumentException("bad column type '" + spec + "': " + why);
    }
}
