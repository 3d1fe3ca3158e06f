package io.numacol.calcite.plan;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's implicit casts, except that a UUID compared with a string compares as UUIDs, as in
 * DuckDB and PostgreSQL: {@code u = '123E4567-...'} finds the UUID written in lowercase, and a
 * string that is no UUID is an error naming it. Calcite compares the UUID's text instead. An instant
 * (TIMESTAMP WITH LOCAL TIME ZONE) compared with a TIMESTAMP or DATE compares as instants, the
 * wall-clock side read in the session's zone, as in DuckDB and PostgreSQL: Calcite compared the
 * instant's UTC milliseconds with the wall clock's.
 */
final class NumacolTypeCoercion extends TypeCoercionImpl {
    NumacolTypeCoercion(RelDataTypeFactory typeFactory, SqlValidator validator) {
        super(typeFactory, validator);
    }

    @Override
    public @Nullable RelDataType commonTypeForBinaryComparison(@Nullable RelDataType type1, @Nullable RelDataType type2) {
        if (type1 != null && type2 != null) {
            boolean uuid1 = type1.getSqlTypeName() == SqlTypeName.UUID;
            boolean uuid2 = type2.getSqlTypeName() == SqlTypeName.UUID;
            if ((uuid1 && SqlTypeUtil.isCharacter(type2)) || (uuid2 && SqlTypeUtil.isCharacter(type1))) {
                return factory.createTypeWithNullability(uuid1 ? type1 : type2, type1.isNullable() || type2.isNullable());
            }
            boolean instant1 = type1.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
            boolean instant2 = type2.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
            SqlTypeName other = instant1 ? type2.getSqlTypeName() : type1.getSqlTypeName();
            if (instant1 != instant2 && (other == SqlTypeName.TIMESTAMP || other == SqlTypeName.DATE)) {
                return factory.createTypeWithNullability(instant1 ? type1 : type2, type1.isNullable() || type2.isNullable());
            }
        }
        return super.commonTypeForBinaryComparison(type1, type2);
    }
}
