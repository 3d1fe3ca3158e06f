package io.numacol.calcite;

import io.numacol.storage.types.ColumnType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystem;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

import java.math.RoundingMode;

/**
 * Calcite's type system with these changes.
 * <ul>
 * <li>A CAST to fewer fraction digits (or from a fraction to an integer) rounds half away from
 * zero, as storing a value does, and as in DuckDB, PostgreSQL and H2; Calcite truncates.
 * <li>Computed DECIMALs have up to {@link #MAX_DECIMAL_PRECISION} digits, as in DuckDB and
 * PostgreSQL. With Calcite's 19 the common type of a BIGINT and a DECIMAL(18, 2) is DECIMAL(19, 0),
 * which cut the fractions off in comparisons, CASE, COALESCE and set operations. Quotients and
 * averages keep the types 19 digits give them, whose values a long holds at their scale.
 * <li>Character literals of different lengths in one list ({@code IN ('AIR', 'AIR REG')}, CASE
 * branches) unify to VARCHAR instead of a CHAR padded to the longest, which would never equal
 * numacol's unpadded strings.
 * <li>VARCHAR and VARBINARY have no length limit (Calcite's is 65536), as a column without a length.
 * <li>SUM of a TINYINT, SMALLINT or INTEGER is a BIGINT and SUM of a BIGINT a DECIMAL(38, 0), as
 * in PostgreSQL: a sum cannot wrap, whichever operators compute it. AVG of an integer is a
 * DOUBLE, as in DuckDB (1.5 for 1 and 2). SUM and AVG of a REAL are DOUBLEs.
 * <li>TIMESTAMP, TIMESTAMP WITH TIME ZONE and TIME without a precision keep milliseconds ({@code CAST(s AS TIMESTAMP)} too),
 * as numacol's columns do; Calcite's default keeps whole seconds.
 * <li>AVG of a DECIMAL keeps at least {@link #AVG_SCALE} fraction digits, or is a DOUBLE where 19
 * digits leave no room for them. Calcite types it like its argument, so AVG(l_discount) over
 * DECIMAL(15,2) would be cut to 0.04 where TPC-H expects 0.0499...; DuckDB and PostgreSQL give
 * more digits too.
 * </ul>
 * The JDBC driver sets it on every connection ({@code typeSystem} property).
 */
public final class NumacolTypeSystem extends RelDataTypeSystemImpl {
    /** {@code typeSystem=io.numacol.calcite.NumacolTypeSystem#INSTANCE}. */
    public static final RelDataTypeSystem INSTANCE = new NumacolTypeSystem();

    /** The most digits of a computed DECIMAL; stored ones have up to {@code ColumnType.MAX_DECIMAL_PRECISION}. */
    public static final int MAX_DECIMAL_PRECISION = 38;

    /** Fraction digits of a DECIMAL average, at least (as SQL Server and DB2 give for division). */
    public static final int AVG_SCALE = 6;

    private NumacolTypeSystem() {
    }

    @Override
    public int getMaxPrecision(SqlTypeName typeName) {
        return switch (typeName) {
            case DECIMAL -> MAX_DECIMAL_PRECISION;
            // a VARCHAR or VARBINARY column without a length holds any length (Calcite's 65536 would cut or refuse longer values)
            case VARCHAR, VARBINARY -> Integer.MAX_VALUE;
            default -> super.getMaxPrecision(typeName);
        };
    }

    @Override
    public int getDefaultPrecision(SqlTypeName typeName) {
        return typeName == SqlTypeName.TIMESTAMP || typeName == SqlTypeName.TIME
                || typeName == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE ? ColumnType.MAX_TIMESTAMP_PRECISION
                : super.getDefaultPrecision(typeName);
    }

    @Override
    public RoundingMode roundingMode() {
        return RoundingMode.HALF_UP;
    }

    @Override
    public RelDataType deriveDecimalDivideType(RelDataTypeFactory typeFactory, RelDataType type1, RelDataType type2) {
        // With 38 digits the SQL:2003 rule gives DECIMAL(24, 16) for DECIMAL(9, 3) / DECIMAL(12, 2),
        // whose values beyond 922 a long at scale 16 cannot hold; Calcite's 19 digits give (19, 6).
        return RelDataTypeSystem.DEFAULT.deriveDecimalDivideType(typeFactory, type1, type2);
    }

    @Override
    public boolean shouldConvertRaggedUnionTypesToVarying() {
        return true;
    }

    /**
     * SUM of a TINYINT, SMALLINT or INTEGER is a BIGINT, SUM of a BIGINT a DECIMAL(38, 0), as in
     * PostgreSQL (DuckDB: a 128-bit integer). Calcite keeps the argument's type, which 150,000
     * customer keys overflow, and its own aggregate code added Java ints that wrapped silently.
     * SUM of a REAL is a DOUBLE, as in DuckDB and H2: a float sum loses the low digits after a few
     * million rows.
     */
    @Override
    public RelDataType deriveSumType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        return switch (argumentType.getSqlTypeName()) {
            case TINYINT, SMALLINT, INTEGER -> typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.BIGINT),
                    argumentType.isNullable());
            case BIGINT -> typeFactory.createTypeWithNullability(
                    typeFactory.createSqlType(SqlTypeName.DECIMAL, MAX_DECIMAL_PRECISION, 0), argumentType.isNullable());
            case REAL -> typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DOUBLE),
                    argumentType.isNullable());
            default -> super.deriveSumType(typeFactory, argumentType);
        };
    }

    @Override
    public RelDataType deriveAvgAggType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
        switch (argumentType.getSqlTypeName()) {
            case REAL -> {
                return deriveSumType(typeFactory, argumentType); // a DOUBLE, as in DuckDB and H2
            }
            case TINYINT, SMALLINT, INTEGER, BIGINT -> {
                // the exact average as a DOUBLE, as DuckDB gives it: Calcite's integer type divided
                // the sum by the count in integers (AVG of 1 and 2 was 1)
                return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.DOUBLE),
                        argumentType.isNullable());
            }
            default -> {
            }
        }
        if (argumentType.getSqlTypeName() != SqlTypeName.DECIMAL || argumentType.getScale() >= AVG_SCALE) {
            return super.deriveAvgAggType(typeFactory, argumentType);
        }
        // The widest precision: Calcite computes AVG as CAST(SUM(x) AS <this type>) / COUNT(x), and
        // the sum needs more integer digits than x (AVG(2.20) over 1000 rows sums to 2200.00).
        // With too many integer digits left for 6 fraction digits (AVG(d * 2) of a DECIMAL(15,2) d),
        // a DOUBLE, as DuckDB gives, keeps the fractions a DECIMAL would cut.
        int integerDigits = argumentType.getPrecision() - argumentType.getScale();
        // At most the digits a quotient has (see deriveDecimalDivideType): a sum at scale 6 must fit a long.
        int precision = RelDataTypeSystem.DEFAULT.getMaxPrecision(SqlTypeName.DECIMAL);
        RelDataType avg = precision - integerDigits < AVG_SCALE ? typeFactory.createSqlType(SqlTypeName.DOUBLE)
                : typeFactory.createSqlType(SqlTypeName.DECIMAL, precision, AVG_SCALE);
        return typeFactory.createTypeWithNullability(avg, argumentType.isNullable());
    }
}
