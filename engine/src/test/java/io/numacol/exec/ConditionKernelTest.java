package io.numacol.exec;

import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chunk-at-a-time condition kernel keeps exactly the rows on which {@link RowPredicate#eval}
 * is TRUE: random conditions (comparisons of LONG, DOUBLE and STRING columns and constants, NULL
 * constants, AND, OR, NOT, IS [NOT] TRUE/FALSE, LIKE) over random chunks of odd sizes with NULLs,
 * -0.0 and NaN.
 */
class ConditionKernelTest {
    private static final List<ColumnType> TYPES = List.of(ColumnType.bigint(), ColumnType.bigint(), ColumnType.doubleType(),
            ColumnType.doubleType(), ColumnType.varchar(3), ColumnType.varchar(3));

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void keepsTheRowsEvalSaysAreTrue(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < 50; round++) {
            Chunk chunk = chunk(random, 1 + random.nextInt(Chunk.CAPACITY));
            RowPredicate p = condition(random, 3);
            boolean[] keep = new boolean[Chunk.CAPACITY];
            new ConditionKernel(p).keep(chunk, keep);
            for (int r = 0; r < chunk.size; r++) {
                assertThat(keep[r]).as("%s on row %d", p, r).isEqualTo(p.eval(chunk, r) == RowPredicate.TRUE);
            }
        }
    }

    private static Chunk chunk(SplittableRandom random, int size) {
        Chunk c = new Chunk(TYPES).allocate();
        for (int r = 0; r < size; r++) {
            for (int col = 0; col < TYPES.size(); col++) {
                c.nulls[col][r] = random.nextInt(6) == 0;
            }
            c.longs[0][r] = random.nextInt(-5, 5);
            c.longs[1][r] = random.nextInt(-5, 5);
            c.doubles[2][r] = random.nextInt(8) == 0 ? -0.0 : random.nextInt(12) == 0 ? Double.NaN : random.nextInt(-3, 3) / 2.0;
            c.doubles[3][r] = random.nextInt(12) == 0 ? Double.NaN : random.nextInt(-3, 3) / 2.0;
            c.strings[4][r] = c.nulls[4][r] ? null : "s" + random.nextInt(4);
            c.strings[5][r] = c.nulls[5][r] ? null : "s" + random.nextInt(4);
        }
        c.size = size;
        return c;
    }

    private static RowPredicate condition(SplittableRandom random, int depth) {
        int kind = depth == 0 ? random.nextInt(3) : random.nextInt(7);
        return switch (kind) {
            case 0, 1 -> compare(random);
            case 2 -> new RowPredicate.Matches(4 + random.nextInt(2), s -> s.endsWith("1"), "LIKE '%1'");
            case 3 -> new RowPredicate.And(operands(random, depth));
            case 4 -> new RowPredicate.Or(operands(random, depth));
            case 5 -> new RowPredicate.Not(condition(random, depth - 1));
            default -> new RowPredicate.Is(condition(random, depth - 1), random.nextBoolean() ? RowPredicate.TRUE : RowPredicate.FALSE,
                    random.nextBoolean());
        };
    }

    private static List<RowPredicate> operands(SplittableRandom random, int depth) {
        List<RowPredicate> out = new ArrayList<>();
        for (int i = 0, n = 2 + random.nextInt(2); i < n; i++) {
            out.add(condition(random, depth - 1));
        }
        return out;
    }

    private static RowPredicate compare(SplittableRandom random) {
        List<RowPredicate.Op> ops = List.of(RowPredicate.Op.values());
        RowPredicate.Op op = ops.get(random.nextInt(ops.size()));
        int pair = random.nextInt(3) * 2; // LONG, DOUBLE or STRING columns
        RowPredicate.Operand left = new RowPredicate.ColumnOperand(pair);
        RowPredicate.Operand right = switch (random.nextInt(3)) {
            case 0 -> new RowPredicate.ColumnOperand(pair + 1);
            case 1 -> new RowPredicate.Constant(random.nextInt(10) == 0 ? null
                    : pair == 0 ? (Object) (long) random.nextInt(-5, 5) : pair == 2 ? (Object) (random.nextInt(-3, 3) / 2.0)
                    : "s" + random.nextInt(4));
            default -> new RowPredicate.ColumnOperand(pair);
        };
        return random.nextBoolean() ? new RowPredicate.Compare(op, left, right) : new RowPredicate.Compare(op, right, left);
    }
}
