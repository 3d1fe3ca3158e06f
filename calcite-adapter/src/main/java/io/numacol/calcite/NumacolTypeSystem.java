package io.numacol.calcite;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's type system with two changes. Character literals of different lengths in one list
 * ({@code IN ('AIR', 'AIR REG')}, CASE branches) unify to VARCHAR instead of a CHAR padded to the
 * longest, which would never equal numacol's unpadded strings. And AVG of a DECIMAL keeps at least {@link #AVG_SCALE}
 * fraction digits, or is a DOUBLE where the maximum precision leaves no room for them. Calcite types it like its argument, so AVG(l_discount) over DECIMAL(15,2)
 * would be cut to 0.04 where TPC-H expects 0.0499...; DuckDB and PostgreSQL give more digits too.
 * The JDBC driver sets it on every connection ({@code typeSystem} property).
 */
public final class NumacolTypeSystem extends RelDataTypeSystemImpl {
    /** {@code typeSystem=io.numacol.calcite.NumacolTypeSystem#INSTANCE}. */
    public static final RelDataTypeSystem INSTANCE = new NumacolTypeSystem();

    /** Fraction digits of a DECIMAL average, at least (as SQL Server and DB2 give for division). */
    public static final int AVG_SCALE = 6;

    private NumacolTypeSystem() {
    }

    @Override
    public boolean shouldConvertRaggedUnionTypesToVarying() {
        return true;
    }

    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        if (argumentType.getSqlTypeName() != SqlTypeName.DECIMAL || argumentType.getScale() >= AVG_SCALE) {
            return super.deriveAvgAggType(typeFactory, argumentType);
        }
        // The widest precision: Calcite computes AVG as CAST(SUM(x) AS <this type>) / COUNT(x), and
        // the sum needs more integer digits than x (AVG(2.20) over 1000 rows sums to 2200.00).
        // With too many integer digits left for 6 fraction digits (AVG(d * 2) of a DECIMAL(15,2) d),
        // a DOUBLE, as DuckDB gives, keeps the fractions a DECIMAL would cut.
        int integerDigits = argumentType.getPrecision() - argumentType.getScale();
        int precision = getMaxPrecision(SqlTypeName.DECIMAL);
        RelDataType avg = precision - integerDigits < AVG_SCALE ? typeFactory.createSqlType(SqlTypeName.DOUBLE)
                : typeFactory.createSqlType(SqlTypeName.DECIMAL, precision, AVG_SCALE);
        return typeFactory.createTypeWithNullability(avg, argumentType.isNullable());
    }
}
