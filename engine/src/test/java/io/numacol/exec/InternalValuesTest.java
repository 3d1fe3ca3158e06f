package io.numacol.exec;

import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.StoredAsDouble;
import io.numacol.storage.types.StoredAsLong;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The per-value conversions that switch on the kind for speed ({@link InternalValues#ofStored},
 * {@link ColumnType#holds}) answer what every type's codec answers.
 */
class InternalValuesTest {
    private static final long[] LONGS = {0, 1, -1, 127, -128, 128, 32_767, -32_769, 19_000, 86_399_999, Integer.MAX_VALUE,
            Integer.MIN_VALUE - 1L, Long.MAX_VALUE, Long.MIN_VALUE};
    private static final double[] DOUBLES = {0.0, -0.0, 1.5, -2.25, 3.4e38, 1e300};

    @Test
    void kindSwitchesAgreeWithEveryCodec() {
        int checked = 0;
        for (ColumnType.Kind kind : ColumnType.Kind.values()) {
            ColumnType type = ColumnType.parse(spelling(kind));
            assertThat(type.kind()).isEqualTo(kind);
            switch (type.codec()) {
                case StoredAsLong codec -> {
                    for (long v : LONGS) {
                        assertThat(type.holds(v)).as("%s holds %d", type, v).isEqualTo(codec.holds(v));
                        if (codec.holds(v)) {
                            assertThat(InternalValues.ofStored(type, v)).as("%s of %d", type, v).isEqualTo(codec.internal(type, v));
                        }
                    }
                }
                case StoredAsDouble codec -> Arrays.stream(DOUBLES).forEach(v ->
                        assertThat(InternalValues.ofStored(type, v)).as("%s of %s", type, v).isEqualTo(codec.internal(type, v)));
                default -> assertThat(type.holds(7)).isTrue();
            }
            checked++;
        }
        assertThat(checked).isEqualTo(ColumnType.Kind.values().length);
    }

    /** A boxed SUM is a Long until it leaves a long, then a BigDecimal: one column holds both, and they order by value. */
    @Test
    void numbersOfTwoClassesCompareByValue() {
        assertThat(InternalValues.compare(new BigDecimal("9223372036854775808"), Long.MAX_VALUE)).isPositive();
        assertThat(InternalValues.compare(1L, new BigDecimal("1.50"))).isNegative();
        assertThat(InternalValues.compare(2L, 1.5)).isPositive();
        assertThat(InternalValues.compare(0L, new BigDecimal("0.00"))).isZero();
        assertThat(InternalValues.compare("b", "a")).isPositive();
    }

    private static String spelling(ColumnType.Kind kind) {
        return switch (kind) {
            case DECIMAL -> "DECIMAL(10,2)";
            case TIMESTAMP_TZ -> "TIMESTAMP WITH TIME ZONE";
            case CHAR, VARCHAR, VARBINARY -> kind.name() + "(3)";
            default -> kind.name();
        };
    }
}
