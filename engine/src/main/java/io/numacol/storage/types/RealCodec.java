package io.numacol.storage.types;

import java.sql.JDBCType;
import java.time.ZoneId;
import java.util.List;

/**
 * REAL (or FLOAT4, FLOAT(p) for p &lt;= 24), single precision: stored as the double of the float
 * it rounds to, read back as a Float; a finite value beyond the float range is out of range.
 */
public final class RealCodec implements StoredAsDouble {
    public static final RealCodec INSTANCE = new RealCodec();

    private RealCodec() {
    }

    @Override
    public String name() {
        return "REAL";
    }

    @Override
    public List<String> aliases() {
        return List.of("FLOAT4");
    }

    @Override
    public JDBCType jdbcType() {
        return JDBCType.REAL;
    }

    /** A Float; a finite text beyond the float range as its Double, which the conversion then calls out of range. */
    @Override
    public Object valueOfText(ColumnType type, String text, ZoneId zone) {
        String t = text.strip();
        // checked as SQL's syntax, then parsed as a float at once: through a double it could round twice
        double d = DoubleCodec.parseApproximate(t);
        float f = Double.isFinite(d) ? Float.parseFloat(t) : (float) d;
        if (Float.isInfinite(f)) {
            return Double.isInfinite(d) ? (Object) f : (Object) d;
        }
        return f;
    }

    @Override
    public double toDouble(ColumnType type, Object value) {
        return DoubleCodec.approximate(type, value, true);
    }

    @Override
    public Object toJava(ColumnType type, double stored) {
        float f = (float) stored;
        if (f != stored && !Double.isNaN(stored)) {
            throw new IllegalArgumentException("stored value " + stored + " is not a " + type + " value: expected a float");
        }
        return f;
    }

    @Override
    public Object internal(ColumnType type, double stored) {
        return (float) stored + 0.0f; // not in a ?: with the double, which would promote it back
    }
}
