package io.numacol.exec;

import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Exact division and narrowing casts against BigDecimal: casts round half away from zero,
 * quotients truncate toward zero at the result's scale, whatever the operands' scales, also where the scaled dividend leaves a long;
 * a zero divisor fails only on a row that is not NULL; a CASE branch is computed only on the
 * rows that take it.
 */
class NumericKernelTest {

    private static Chunk chunk(int scaleA, int scaleB, long[] a, long[] b, boolean[] nullB) {
        Chunk c = new Chunk(List.of(ColumnType.decimal(18, scaleA), ColumnType.decimal(18, scaleB))).allocate();
        System.arraycopy(a, 0, c.longs[0], 0, a.length);
        System.arraycopy(b, 0, c.longs[1], 0, b.length);
        if (nullB != null) {
            System.arraycopy(nullB, 0, c.nulls[1], 0, nullB.length);
        }
        c.size = a.length;
        return c;
    }

    private static NumericExpr quotient(int scaleA, int scaleB, int scale) {
        return new NumericExpr.Arithmetic(NumericExpr.Op.DIVIDE, new NumericExpr.Column(0, NumericExpr.Type.decimal(18, scaleA)),
                new NumericExpr.Column(1, NumericExpr.Type.decimal(18, scaleB)), NumericExpr.Type.decimal(19, scale));
    }

    private static long[] evaluate(NumericExpr e, int scale, Chunk in) {
        Chunk out = new ChunkEvaluator(List.of(new ChunkExpr.Numeric(e, ColumnType.decimal(18, scale)))).evaluate(in);
        return Arrays.copyOf(out.longs[0], in.size);
    }

    @ParameterizedTest(name = "DECIMAL(18,{0}) / DECIMAL(18,{1}) at scale {2}")
    @CsvSource({"2, 2, 6", "2, 0, 6", "0, 2, 6", "4, 2, 0", "6, 0, 2", "2, 4, 0", "0, 0, 0", "2, 2, 18", "18, 0, 0", "0, 17, 0"})
    void quotientsTruncateAtTheResultScale(int scaleA, int scaleB, int scale) {
        SplittableRandom random = new SplittableRandom(scaleA * 100 + scaleB * 10 + scale);
        int n = 1_000;
        long[] a = new long[n];
        long[] b = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = switch (i % 4) {
                case 0 -> random.nextLong(-1_000, 1_000);
                case 1 -> random.nextLong(-1_000_000_000_000L, 1_000_000_000_000L);
                case 2 -> random.nextLong(); // the scaled dividend leaves a long
                default -> i % 8 == 3 ? Long.MIN_VALUE : Long.MAX_VALUE;
            };
            do {
                b[i] = i % 3 == 0 ? random.nextLong(-50, 50) : random.nextLong();
            } while (b[i] == 0);
        }
        NumericExpr e = quotient(scaleA, scaleB, scale);
        // the quotients that are longs in one chunk; each of the others fails alone
        List<long[]> fit = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            BigInteger q = BigDecimal.valueOf(a[i], scaleA).divide(BigDecimal.valueOf(b[i], scaleB), scale, RoundingMode.DOWN)
                    .unscaledValue();
            if (q.bitLength() < 64) {
                fit.add(new long[]{a[i], b[i], q.longValue()});
            } else {
                Chunk alone = chunk(scaleA, scaleB, new long[]{a[i]}, new long[]{b[i]}, null);
                assertThatThrownBy(() -> evaluate(e, scale, alone)).isInstanceOf(NumericExpr.BeyondLong.class);
            }
        }
        assertThat(fit).hasSizeGreaterThan(n / 4);
        for (int from = 0; from < fit.size(); from += Chunk.CAPACITY) {
            List<long[]> rows = fit.subList(from, Math.min(fit.size(), from + Chunk.CAPACITY));
            Chunk in = chunk(scaleA, scaleB, rows.stream().mapToLong(r -> r[0]).toArray(), rows.stream().mapToLong(r -> r[1]).toArray(),
                    null);
            assertThat(evaluate(e, scale, in)).isEqualTo(rows.stream().mapToLong(r -> r[2]).toArray());
        }
    }

    @Test
    void aZeroDivisorFailsOnlyWhereItIsNotNull() {
        NumericExpr e = quotient(2, 2, 6);
        Chunk nullZero = chunk(2, 2, new long[]{100, 5}, new long[]{0, 3}, new boolean[]{true, false});
        assertThat(evaluate(e, 6, nullZero)[1]).isEqualTo(1_666_666L);
        Chunk zero = chunk(2, 2, new long[]{100, 5}, new long[]{0, 3}, null);
        assertThatThrownBy(() -> evaluate(e, 6, zero)).isInstanceOf(ArithmeticException.class).hasMessageContaining("division by zero");
    }

    @Test
    void narrowingCastsRoundHalfAwayFromZero() {
        NumericExpr cast = new NumericExpr.Rescale(new NumericExpr.Column(0, NumericExpr.Type.decimal(18, 4)),
                NumericExpr.Type.decimal(18, 1));
        long[] values = {12_349, -12_349, 12_500, -12_500, 12_449, 5, -5, 0, 499, 500, -500, Long.MAX_VALUE, Long.MIN_VALUE};
        Chunk in = chunk(4, 0, values, new long[values.length], null);
        long[] expected = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            expected[i] = BigDecimal.valueOf(values[i], 4).setScale(1, RoundingMode.HALF_UP).unscaledValue().longValueExact();
        }
        assertThat(evaluate(cast, 1, in)).containsExactly(expected);
        assertThat(expected).startsWith(12, -12, 13, -13, 12, 0, 0, 0, 0, 1, -1);
    }

    @Test
    void aCaseBranchIsComputedOnlyOnTheRowsThatTakeIt() {
        // CASE WHEN b = 0 THEN NULL ELSE a / b END
        RowPredicate zero = new RowPredicate.Compare(RowPredicate.Op.EQ, new RowPredicate.ColumnOperand(1), new RowPredicate.Constant(0L));
        ColumnType type = ColumnType.decimal(18, 6);
        ChunkExpr safe = new ChunkExpr.Case(List.of(zero), List.of(new ChunkExpr.Constant(null, type)),
                new ChunkExpr.Numeric(quotient(2, 2, 6), type), type);
        Chunk in = chunk(2, 2, new long[]{100, 7, -9, 4}, new long[]{0, 2, 0, 3}, null);
        Chunk out = new ChunkEvaluator(List.of(safe)).evaluate(in);
        assertThat(out.nulls[0]).startsWith(true, false, true, false);
        assertThat(out.longs[0][1]).isEqualTo(3_500_000L);
        assertThat(out.longs[0][3]).isEqualTo(1_333_333L);
    }
}
