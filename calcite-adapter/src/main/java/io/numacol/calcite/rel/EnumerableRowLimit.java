package io.numacol.calcite.rel;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableLimit;
import org.apache.calcite.adapter.enumerable.EnumerableLimitSort;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.EnumerableDefaults;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.function.Function1;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.BuiltInMethod;
import org.apache.calcite.util.Pair;

import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * OFFSET and LIMIT (FETCH) of rows that Calcite runs, counted in longs: Calcite's EnumerableLimit
 * and EnumerableLimitSort take an int, so a parameter (typed BIGINT, as PostgreSQL types a LIMIT's)
 * was cast to Integer, and a literal past 2<sup>31</sup>-1 could not be implemented at all. A LIMIT
 * larger than the rows there are keeps them all, as in PostgreSQL; a NULL parameter is no LIMIT or
 * OFFSET 0, a negative one an error (2201W, 2201X). With a collation it sorts first: the top-N of
 * Calcite's sort while OFFSET plus LIMIT fits an int, else the whole sort. numacol's own sorts
 * ({@link NumacolSort}) count in longs already.
 */
public final class EnumerableRowLimit extends Sort implements EnumerableRel {
    private static final Method LIMIT = Types.lookupMethod(EnumerableRowLimit.class, "limit", Enumerable.class, long.class, long.class);
    private static final Method ORDER_BY = Types.lookupMethod(EnumerableRowLimit.class, "orderBy", Enumerable.class,
            Function1.class, Comparator.class, long.class, long.class);
    private static final Method COUNT = Types.lookupMethod(EnumerableRowLimit.class, "count", Object.class, String.class);

    /** No LIMIT: every row after the OFFSET. */
    private static final long ALL = -1;

    EnumerableRowLimit(RelOptCluster cluster, RelTraitSet traits, RelNode input, RelCollation collation, RexNode offset,
                       RexNode fetch) {
        super(cluster, traits, input, collation, offset, fetch);
    }

    @Override
    public Sort copy(RelTraitSet traitSet, RelNode input, RelCollation collation, RexNode offset, RexNode fetch) {
        return new EnumerableRowLimit(getCluster(), traitSet, input, collation, offset, fetch);
    }

    /**
     * {@code plan} (a physical plan) with each EnumerableLimit and EnumerableLimitSort whose OFFSET or
     * LIMIT is a parameter, or a literal beyond an int, made an EnumerableRowLimit; the others stay
     * Calcite's.
     */
    public static RelNode apply(RelNode plan) {
        List<RelNode> inputs = new ArrayList<>();
        boolean changed = false;
        for (RelNode input : plan.getInputs()) {
            RelNode rewritten = apply(input);
            changed |= rewritten != input;
            inputs.add(rewritten);
        }
        RelNode node = changed ? plan.copy(plan.getTraitSet(), inputs) : plan;
        return switch (node) {
            // a limit keeps its input's order, which a Sort without keys must not claim as its own
            case EnumerableLimit limit when beyondInt(limit.offset) || beyondInt(limit.fetch) -> new EnumerableRowLimit(limit.getCluster(),
                    limit.getTraitSet().replace(RelCollations.EMPTY), limit.getInput(), RelCollations.EMPTY, limit.offset, limit.fetch);
            case EnumerableLimitSort sort when beyondInt(sort.offset) || beyondInt(sort.fetch) -> new EnumerableRowLimit(
                    sort.getCluster(), sort.getTraitSet(), sort.getInput(), sort.getCollation(), sort.offset, sort.fetch);
            default -> node;
        };
    }

    /** Whether Calcite's int would not hold {@code count}: a parameter (any value may come), a literal past an int. */
    private static boolean beyondInt(RexNode count) {
        if (count instanceof RexLiteral literal) {
            BigDecimal value = literal.getValueAs(BigDecimal.class);
            return value != null && value.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0;
        }
        return count instanceof RexDynamicParam;
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
        BlockBuilder block = new BlockBuilder();
        Expression rows = block.append("rows", input.block);
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), input.format);
        Expression offsetRows = block.append("offsetRows", countOf(offset, "OFFSET"));
        Expression fetchRows = block.append("fetchRows", countOf(fetch, "LIMIT"));
        if (collation.getFieldCollations().isEmpty()) {
            block.add(Expressions.return_(null, Expressions.call(LIMIT, rows, offsetRows, fetchRows)));
        } else {
            Pair<Expression, Expression> key = physType.generateCollationKey(collation.getFieldCollations());
            Expression comparator = key.right == null ? Expressions.constant(null, Comparator.class) : block.append("comparator", key.right);
            block.add(Expressions.return_(null, Expressions.call(ORDER_BY, rows, block.append("keySelector", key.left), comparator,
                    offsetRows, fetchRows)));
        }
        return implementor.result(physType, block.toBlock());
    }

    /**
     * The count {@code node} gives (a literal, or the parameter's value at run time) as a long
     * expression; absent, none. A literal beyond a long is taken as the largest long: no table
     * has that many rows, so LIMIT keeps all and OFFSET skips all.
     */
    private static Expression countOf(RexNode node, String clause) {
        return switch (node) {
            case null -> Expressions.constant(clause.equals("LIMIT") ? ALL : 0L);
            case RexLiteral literal -> Expressions.constant(literal.getValueAs(BigDecimal.class).min(BigDecimal.valueOf(Long.MAX_VALUE)).longValue());
            case RexDynamicParam param -> Expressions.call(COUNT, Expressions.call(DataContext.ROOT,
                    BuiltInMethod.DATA_CONTEXT_GET.method, Expressions.constant("?" + param.getIndex())), Expressions.constant(clause));
            default -> throw new IllegalArgumentException(clause + " must be a number or a parameter, not " + node);
        };
    }

    /**
     * A parameter's value as a count of rows for {@code clause} (LIMIT or OFFSET): NULL is no LIMIT
     * and OFFSET 0, as in PostgreSQL. Called by the generated code.
     *
     * @throws IllegalArgumentException for a negative count, which PostgreSQL refuses too
     */
    public static long count(Object value, String clause) {
        if (value == null) {
            return clause.equals("LIMIT") ? ALL : 0;
        }
        long count = ((Number) value).longValue();
        if (count < 0) {
            throw new IllegalArgumentException(clause + " must not be negative, got " + count);
        }
        return count;
    }

    /** {@code rows} without the first {@code offset}, at most {@code fetch} of them ({@link #ALL}: no limit). Called by the generated code. */
    public static <T> Enumerable<T> limit(Enumerable<T> rows, long offset, long fetch) {
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<T> enumerator() {
                return new Enumerator<>() {
                    private final Enumerator<T> in = rows.enumerator();
                    private long skipped;
                    private long taken;

                    @Override
                    public T current() {
                        return in.current();
                    }

                    @Override
                    public boolean moveNext() {
                        if (fetch != ALL && taken >= fetch) {
                            return false; // not read on: LIMIT 0 reads no row, and the end needs none
                        }
                        for (; skipped < offset; skipped++) {
                            if (!in.moveNext()) {
                                return false;
                            }
                        }
                        if (!in.moveNext()) {
                            return false;
                        }
                        taken++;
                        return true;
                    }

                    @Override
                    public void reset() {
                        in.reset();
                        skipped = 0;
                        taken = 0;
                    }

                    @Override
                    public void close() {
                        in.close();
                    }
                };
            }
        };
    }

    /**
     * {@code rows} sorted, then {@link #limit}ed: Calcite's top-N, which keeps only OFFSET plus LIMIT
     * rows, where that fits its int; else the whole sort. Called by the generated code.
     */
    public static <T, K> Enumerable<T> orderBy(Enumerable<T> rows, Function1<T, K> key, Comparator<K> comparator, long offset,
                                               long fetch) {
        if (comparator != null && fetch != ALL && offset <= Integer.MAX_VALUE && fetch <= Integer.MAX_VALUE - offset) {
            return EnumerableDefaults.orderBy(rows, key, comparator, (int) offset, (int) fetch);
        }
        return limit(EnumerableDefaults.orderBy(rows, key, comparator), offset, fetch);
    }
}
