package io.numacol.calcite;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class NumacolTypeFactoryTest {
    private final NumacolTypeFactory types = new NumacolTypeFactory();

    private RelDataType decimal(int precision, int scale) {
        return types.createSqlType(SqlTypeName.DECIMAL, precision, scale);
    }

    @Test
    void keepsFractionDigitsWhereIntegerDigitsMustGive() {
        assertThat(types.leastRestrictive(List.of(decimal(15, 2), decimal(38, 0)))).isEqualTo(decimal(38, 2));
        assertThat(types.leastRestrictive(List.of(decimal(38, 0), decimal(9, 3), decimal(12, 2)))).isEqualTo(decimal(38, 3));
    }

    @Test
    void isCalcitesWhereTheDigitsFit() {
        assertThat(types.leastRestrictive(List.of(decimal(15, 2), decimal(9, 3)))).isEqualTo(decimal(16, 3));
        assertThat(types.leastRestrictive(List.of(types.createSqlType(SqlTypeName.BIGINT), decimal(12, 2))))
                .isEqualTo(decimal(21, 2));
        RelDataType nullable = types.createTypeWithNullability(decimal(38, 0), true);
        assertThat(types.leastRestrictive(List.of(nullable, decimal(5, 1)))).isEqualTo(
                types.createTypeWithNullability(decimal(38, 1), true));
    }
}
