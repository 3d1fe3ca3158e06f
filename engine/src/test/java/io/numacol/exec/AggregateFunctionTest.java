package io.numacol.exec;

import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The vid aggregate's variants of {@link AggregateFunction#update} (one group, few groups) give
 * what the scattering update gives, for every function they have a path of their own in, with and
 * without NULLs; exact sums stay exact past a long.
 */
class AggregateFunctionTest {
    private static final List<ColumnType> TYPES = List.of(ColumnType.bigint(), ColumnType.doubleType(),
            ColumnType.decimal(ColumnType.MAX_DECIMAL_PRECISION, 2));

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void singleAndFewAgreeWithUpdate(long seed) {
        Random random = new Random(seed);
        List<Supplier<AggregateFunction>> functions = List.of(
                () -> new CountFunction(-1), () -> new CountFunction(0),
                () -> new LongSumFunction(0, false, ColumnType.bigint()), () -> new LongSumFunction(2, true, TYPES.get(2)),
                () -> new DoubleSumFunction(1, false),
                () -> new ExtremeFunction(0, ColumnType.bigint(), 1), () -> new ExtremeFunction(1, ColumnType.doubleType(), -1));
        int groups = 1 + random.nextInt(FewGroups.MAX);
        for (Supplier<AggregateFunction> make : functions) {
            AggregateFunction scattered = make.get();
            AggregateFunction single = make.get();
            AggregateFunction fewPath = make.get();
            AggregateFunction scatteredOne = make.get();
            for (AggregateFunction f : List.of(scattered, single, fewPath, scatteredOne)) {
                f.initialize(groups);
            }
            FewGroups few = new FewGroups();
            long[] groupKeys = new long[groups];
            for (int g = 0; g < groups; g++) {
                groupKeys[g] = 100L + g;
            }
            for (int block = 0; block < 5; block++) {
                int n = 1 + random.nextInt(Chunk.CAPACITY);
                Chunk in = chunk(random, n, block % 2 == 0);
                int[] groupOf = new int[Chunk.CAPACITY];
                long[] packed = new long[Chunk.CAPACITY];
                for (int r = 0; r < n; r++) {
                    groupOf[r] = random.nextInt(groups);
                    packed[r] = groupKeys[groupOf[r]];
                }
                few.assign(packed, n, groupKeys, groups);
                scattered.update(in, groupOf, n);
                fewPath.updateFew(in, n, groupOf, few);
                single.updateSingle(in, n, 0);
                scatteredOne.update(in, new int[Chunk.CAPACITY], n);
            }
            for (int g = 0; g < groups; g++) {
                assertThat(fewPath.partial(g).result()).as("%s group %d", scattered.getClass().getSimpleName(), g)
                        .isEqualTo(scattered.partial(g).result());
            }
            assertThat(single.partial(0).result()).as(scattered.getClass().getSimpleName())
                    .isEqualTo(scatteredOne.partial(0).result());
        }
    }

    private static Chunk chunk(Random random, int n, boolean withNulls) {
        Chunk in = new Chunk(TYPES);
        in.longs[0] = random.longs(Chunk.CAPACITY, -1_000_000, 1_000_000).toArray();
        in.doubles[1] = random.ints(Chunk.CAPACITY, -1000, 1000).asDoubleStream().map(d -> d / 4).toArray();
        in.longs[2] = random.longs(Chunk.CAPACITY, -1_000_000_000L, 1_000_000_000L).toArray();
        for (int c = 0; c < TYPES.size(); c++) {
            if (withNulls) {
                in.nulls[c] = new boolean[Chunk.CAPACITY];
                for (int r = 0; r < n; r++) {
                    in.nulls[c][r] = random.nextInt(5) == 0;
                }
            }
        }
        in.size = n;
        return in;
    }

    /** Past a long the sum spills into a BigDecimal: exact as a partial, an overflow when written into a chunk. */
    @Test
    void exactSumSpillsPastALong() {
        List<AggregateFunction> sums = new ArrayList<>();
        for (int path = 0; path < 3; path++) {
            LongSumFunction sum = new LongSumFunction(0, false, ColumnType.decimal(ColumnType.MAX_DECIMAL_PRECISION, 2));
            sum.initialize(1);
            Chunk in = new Chunk(List.of(ColumnType.bigint()));
            in.longs[0] = new long[Chunk.CAPACITY];
            Arrays.fill(in.longs[0], Long.MAX_VALUE / 3);
            in.size = 10;
            switch (path) {
                case 0 -> sum.update(in, new int[Chunk.CAPACITY], 10);
                case 1 -> sum.updateSingle(in, 10, 0);
                default -> {
                    FewGroups few = new FewGroups();
                    few.assign(new long[Chunk.CAPACITY], 10, new long[] {0}, 1);
                    sum.updateFew(in, 10, new int[Chunk.CAPACITY], few);
                }
            }
            sums.add(sum);
        }
        BigDecimal expected = BigDecimal.valueOf(Long.MAX_VALUE / 3, 2).multiply(BigDecimal.TEN);
        for (AggregateFunction sum : sums) {
            assertThat((BigDecimal) sum.partial(0).result()).isEqualByComparingTo(expected);
        }
        Chunk out = new Chunk(List.of(ColumnType.bigint())).allocate();
        assertThatThrownBy(() -> sums.getFirst().finalizeGroup(out, 0, 0, 0))
                .isInstanceOf(ArithmeticException.class).hasMessageContaining("out of range");
    }
}
