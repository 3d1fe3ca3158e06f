package io.numacol.calcite;

import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactoryImpl.JavaType;
import org.apache.calcite.sql.type.SqlTypeMappingRule;
import org.apache.calcite.sql.type.SqlTypeName;
import org.checkerframework.checker.nullness.qual.Nullable;

import java.lang.reflect.Type;
import java.util.List;
import java.util.UUID;

/**
 * Calcite's type factory over {@link NumacolTypeSystem}, whose common type of DECIMALs keeps
 * their fraction digits. Where the integer digits of one and the fraction digits of another need
 * more than {@link NumacolTypeSystem#MAX_DECIMAL_PRECISION} digits, Calcite keeps the integer
 * digits and cuts the fractions: a DECIMAL(15,2) compared with a SUM (DECIMAL(38,0)) was cast to
 * DECIMAL(38,0), so 10.50 &gt; 10 was false. The integer digits of a 38-digit type are the room a
 * SUM is given, seldom used, while the fractions are in the data; so the fractions stay, as in
 * DuckDB's arithmetic and comparisons, and a value needing the integer digits given up fails its
 * CAST instead of being answered wrong.
 */
public final class NumacolTypeFactory extends JavaTypeFactoryImpl {

    public NumacolTypeFactory() {
        super(NumacolTypeSystem.INSTANCE);
    }

    /**
     * A UUID is a java.util.UUID in generated code, as Calcite's own functions on it (uuidToString,
     * the casts) take; Calcite's factory leaves it Object, and {@code CAST(u AS VARCHAR)} then fails to compile.
     */
    @Override
    public Type getJavaClass(RelDataType type) {
        return type.getSqlTypeName() == SqlTypeName.UUID && !(type instanceof JavaType) ? UUID.class : super.getJavaClass(type);
    }

    @Override
    public @Nullable RelDataType leastRestrictive(List<RelDataType> types, SqlTypeMappingRule mappingRule) {
        RelDataType common = super.leastRestrictive(types, mappingRule);
        if (common == null) {
            return instants(types);
        }
        if (common.getSqlTypeName() != SqlTypeName.DECIMAL) {
            return common;
        }
        int scale = 0;
        for (RelDataType type : types) {
            if (type.getSqlTypeName() == SqlTypeName.DECIMAL) {
                scale = Math.max(scale, type.getScale());
            }
        }
        if (scale <= common.getScale()) {
            return common;
        }
        int max = getTypeSystem().getMaxPrecision(SqlTypeName.DECIMAL);
        scale = Math.min(scale, getTypeSystem().getMaxScale(SqlTypeName.DECIMAL));
        RelDataType kept = createSqlType(SqlTypeName.DECIMAL, max, scale);
        return createTypeWithNullability(kept, common.isNullable());
    }

    /**
     * The common type of instants (TIMESTAMP WITH LOCAL TIME ZONE), text and NULLs, which Calcite
     * has none of: {@code INSERT INTO t VALUES ('2024-01-01 10:00+01'), (NULL)} into an instant
     * column failed as "values of incompatible types" (Calcite casts the NULL to the column's type,
     * the text not yet). Null for any other mix, and for text alone.
     */
    private @Nullable RelDataType instants(List<RelDataType> types) {
        RelDataType widest = null;
        boolean nullable = false;
        for (RelDataType type : types) {
            if (type.getSqlTypeName() == SqlTypeName.NULL) {
                nullable = true;
            } else if (SqlTypeName.CHAR_TYPES.contains(type.getSqlTypeName())) {
                nullable |= type.isNullable(); // text, read as an instant where it is cast
            } else if (type.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
                widest = widest == null || type.getPrecision() > widest.getPrecision() ? type : widest;
                nullable |= type.isNullable();
            } else {
                return null;
            }
        }
        return widest == null ? null : createTypeWithNullability(widest, nullable);
    }
}
