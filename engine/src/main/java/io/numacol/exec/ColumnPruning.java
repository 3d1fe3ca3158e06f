package io.numacol.exec;

import io.numacol.storage.types.StorageKind;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;

/**
 * Drops the columns no operator above reads, down to the scans, so that a pipeline neither
 * decodes nor copies them. Calcite's plans often leave a filter straight over a scan of all of a
 * table's columns (a semi-join's side that needs one key column of a wide table), and
 * decoding a string column costs more than all the rest of such a pipeline.
 *
 * <p>Pruning keeps each node's meaning and rewrites the column numbers of what reads its output.
 * A pruned node may put out columns beyond those asked for (those its own condition reads);
 * the plan's root gets a projection back to its exact columns.
 */
final class ColumnPruning {
    /**
     * Aggregates pruned so far: an aggregate puts out all its columns whatever is asked, so one
     * used twice in the plan (a view) stays one node, which the executor then runs once.
     */
    private final IdentityHashMap<PlanNode, Pruned> aggregates = new IdentityHashMap<>();

    private ColumnPruning() {
    }

    /** {@code plan} reading only the columns it needs, with the same output columns. */
    static PlanNode prune(PlanNode plan) {
        int width = plan.types().size();
        BitSet all = new BitSet();
        all.set(0, width);
        Pruned pruned = new ColumnPruning().prune(plan, all);
        int[] columns = Arrays.copyOf(pruned.map, width);
        boolean identity = pruned.node.types().size() == width;
        for (int c = 0; c < width && identity; c++) {
            identity = columns[c] == c;
        }
        return identity ? pruned.node : new PlanNode.Project(pruned.node, columns);
    }

    /** A node that puts out at least the columns asked for: column {@code c} of the original is column {@code map[c]} (-1: dropped). */
    private record Pruned(PlanNode node, int[] map) {
        int at(int column) {
            int c = map[column];
            if (c < 0) {
                throw new IllegalStateException("column " + column + " was pruned but is read");
            }
            return c;
        }
    }

    private Pruned prune(PlanNode node, BitSet needed) {
        return switch (node) {
            case PlanNode.Scan scan -> {
                int[] keep = atLeastOne(needed, scan.types().size(), c -> scan.types().get(c).storageKind() != StorageKind.STRING);
                if (keep.length == scan.columns().length) {
                    yield new Pruned(scan, identity(keep.length));
                }
                int[] columns = Arrays.stream(keep).map(c -> scan.columns()[c]).toArray();
                yield new Pruned(new PlanNode.Scan(scan.table(), scan.filter(), columns), map(keep, scan.columns().length));
            }
            case PlanNode.VidScan scan -> new Pruned(scan, identity(scan.types().size()));
            case PlanNode.Project project -> {
                int[] keep = atLeastOne(needed, project.exprs().size(), c -> true);
                BitSet reads = new BitSet();
                for (int e : keep) {
                    remap(project.exprs().get(e), collect(reads));
                }
                Pruned input = prune(project.input(), reads);
                List<ChunkExpr> exprs = Arrays.stream(keep).mapToObj(e -> remap(project.exprs().get(e), input::at)).toList();
                yield new Pruned(new PlanNode.Project(input.node, exprs), map(keep, project.exprs().size()));
            }
            case PlanNode.Filter filter -> {
                BitSet reads = (BitSet) needed.clone();
                remap(filter.condition(), collect(reads));
                Pruned input = prune(filter.input(), reads);
                yield new Pruned(new PlanNode.Filter(input.node, remap(filter.condition(), input::at)), input.map);
            }
            case PlanNode.Sort sort -> {
                BitSet reads = (BitSet) needed.clone();
                sort.ordering().keys().forEach(k -> reads.set(k.field()));
                Pruned input = prune(sort.input(), reads);
                List<Ordering.Key> keys = sort.ordering().keys().stream()
                        .map(k -> new Ordering.Key(input.at(k.field()), k.descending(), k.nullsFirst())).toList();
                yield new Pruned(new PlanNode.Sort(input.node, new Ordering(keys, sort.ordering().offset(), sort.ordering().fetch())),
                        input.map);
            }
            case PlanNode.Aggregate aggregate when aggregates.containsKey(aggregate) -> aggregates.get(aggregate);
            case PlanNode.Aggregate aggregate -> {
                BitSet reads = new BitSet();
                Arrays.stream(aggregate.keys()).forEach(reads::set);
                for (AggregateCall call : aggregate.calls()) {
                    if (call.input() >= 0) {
                        reads.set(call.input());
                    }
                    if (call.filter() >= 0) {
                        reads.set(call.filter());
                    }
                }
                Pruned input = prune(aggregate.input(), reads);
                int[] keys = Arrays.stream(aggregate.keys()).map(input::at).toArray();
                List<AggregateCall> calls = aggregate.calls().stream().map(call -> call.renumbered(input::at)).toList();
                Pruned pruned = new Pruned(new PlanNode.Aggregate(input.node, keys, calls, aggregate.types()),
                        identity(aggregate.types().size()));
                aggregates.put(aggregate, pruned);
                yield pruned;
            }
            case PlanNode.HashJoin join -> {
                int leftWidth = join.left().types().size();
                BitSet leftReads = new BitSet();
                BitSet rightReads = new BitSet();
                BitSet pairReads = (BitSet) needed.clone();
                if (join.residual() != null) {
                    remap(join.residual(), collect(pairReads));
                }
                pairReads.stream().forEach(c -> (c < leftWidth ? leftReads : rightReads).set(c < leftWidth ? c : c - leftWidth));
                Arrays.stream(join.leftKeys()).forEach(leftReads::set);
                Arrays.stream(join.rightKeys()).forEach(rightReads::set);
                Pruned left = prune(join.left(), leftReads);
                Pruned right = prune(join.right(), rightReads);
                int prunedLeftWidth = left.node.types().size();
                int[] pairMap = new int[join.pairTypes().size()];
                for (int c = 0; c < pairMap.length; c++) {
                    int m = c < leftWidth ? left.map[c] : right.map[c - leftWidth];
                    pairMap[c] = m < 0 ? -1 : c < leftWidth ? m : prunedLeftWidth + m;
                }
                Pruned pair = new Pruned(null, pairMap);
                PlanNode pruned = new PlanNode.HashJoin(left.node, right.node, Arrays.stream(join.leftKeys()).map(left::at).toArray(),
                        Arrays.stream(join.rightKeys()).map(right::at).toArray(), join.nullsEqual(), join.kind(), join.buildLeft(),
                        join.residual() == null ? null : remap(join.residual(), pair::at));
                yield narrowed(pruned, Arrays.copyOf(pairMap, join.types().size()), needed);
            }
        };
    }

    /**
     * A pruned join, whose output holds the key columns of both sides whether or not they are
     * asked for, under a projection to those asked for, when that drops any: a join fills in
     * only the columns read above it (see {@link PipelineExecutor}), and a chain of joins
     * otherwise carries every key column of every side up to the top.
     */
    private static Pruned narrowed(PlanNode join, int[] map, BitSet needed) {
        BitSet read = new BitSet();
        needed.stream().filter(c -> c < map.length && map[c] >= 0).forEach(c -> read.set(map[c]));
        int width = join.types().size();
        int[] keep = atLeastOne(read, width, c -> join.types().get(c).storageKind() != StorageKind.STRING);
        if (keep.length == width) {
            return new Pruned(join, map);
        }
        int[] at = map(keep, width);
        int[] narrowed = Arrays.stream(map).map(c -> c < 0 ? -1 : at[c]).toArray();
        return new Pruned(new PlanNode.Project(join, keep), narrowed);
    }

    /**
     * The columns asked for among {@code width}, ascending; when none is, one column still (the
     * first {@code cheap} one if any), since a pipeline's chunks carry their row count in columns.
     */
    private static int[] atLeastOne(BitSet needed, int width, IntPredicate cheap) {
        int[] keep = needed.stream().filter(c -> c < width).toArray();
        if (keep.length > 0 || width == 0) {
            return keep;
        }
        for (int c = 0; c < width; c++) {
            if (cheap.test(c)) {
                return new int[]{c};
            }
        }
        return new int[]{0};
    }

    private static int[] identity(int width) {
        int[] map = new int[width];
        Arrays.setAll(map, c -> c);
        return map;
    }

    /** The map of a node that keeps columns {@code keep} (ascending) of {@code width}. */
    private static int[] map(int[] keep, int width) {
        int[] map = new int[width];
        Arrays.fill(map, -1);
        for (int i = 0; i < keep.length; i++) {
            map[keep[i]] = i;
        }
        return map;
    }

    /** The columns {@code p} reads. */
    static BitSet reads(RowPredicate p) {
        BitSet out = new BitSet();
        remap(p, collect(out));
        return out;
    }

    /** A column map that records the columns it sees and keeps them. */
    private static IntUnaryOperator collect(BitSet into) {
        return c -> {
            into.set(c);
            return c;
        };
    }

    static RowPredicate remap(RowPredicate p, IntUnaryOperator map) {
        return switch (p) {
            case RowPredicate.Compare c -> new RowPredicate.Compare(c.op(), remap(c.left(), map), remap(c.right(), map));
            case RowPredicate.IsNull n -> new RowPredicate.IsNull(map.applyAsInt(n.column()), n.negated());
            case RowPredicate.Not n -> new RowPredicate.Not(remap(n.operand(), map));
            case RowPredicate.Is i -> new RowPredicate.Is(remap(i.operand(), map), i.value(), i.negated());
            case RowPredicate.Matches m -> new RowPredicate.Matches(map.applyAsInt(m.column()), m.test(), m.description());
            case RowPredicate.InKeys k -> new RowPredicate.InKeys(map.applyAsInt(k.column()), k.keys());
            case RowPredicate.InValues v -> new RowPredicate.InValues(map.applyAsInt(v.column()), v.values());
            case RowPredicate.And a -> new RowPredicate.And(a.operands().stream().map(o -> remap(o, map)).toList());
            case RowPredicate.Or o -> new RowPredicate.Or(o.operands().stream().map(x -> remap(x, map)).toList());
        };
    }

    private static RowPredicate.Operand remap(RowPredicate.Operand o, IntUnaryOperator map) {
        return o instanceof RowPredicate.ColumnOperand c ? new RowPredicate.ColumnOperand(map.applyAsInt(c.column())) : o;
    }

    static ChunkExpr remap(ChunkExpr e, IntUnaryOperator map) {
        return switch (e) {
            case ChunkExpr.Column c -> new ChunkExpr.Column(map.applyAsInt(c.column()), c.type());
            case ChunkExpr.Constant c -> c;
            case ChunkExpr.Numeric n -> new ChunkExpr.Numeric(remap(n.expr(), map), n.type());
            case ChunkExpr.Extract x -> new ChunkExpr.Extract(x.field(), map.applyAsInt(x.column()), x.type());
            case ChunkExpr.DateShift x -> new ChunkExpr.DateShift(map.applyAsInt(x.column()), x.months(), x.days(), x.type());
            case ChunkExpr.Substring x -> new ChunkExpr.Substring(map.applyAsInt(x.column()), x.start(), x.length(), x.type());
            case ChunkExpr.Case c -> {
                List<RowPredicate> conditions = new ArrayList<>();
                c.conditions().forEach(p -> conditions.add(remap(p, map)));
                List<ChunkExpr> values = new ArrayList<>();
                c.values().forEach(v -> values.add(remap(v, map)));
                yield new ChunkExpr.Case(conditions, values, remap(c.otherwise(), map), c.type());
            }
            case ChunkExpr.Condition c -> new ChunkExpr.Condition(remap(c.predicate(), map), c.type());
        };
    }

    static NumericExpr remap(NumericExpr e, IntUnaryOperator map) {
        return switch (e) {
            case NumericExpr.Column c -> new NumericExpr.Column(map.applyAsInt(c.column()), c.type());
            case NumericExpr.LongConstant l -> l;
            case NumericExpr.DoubleConstant d -> d;
            case NumericExpr.Arithmetic a -> new NumericExpr.Arithmetic(a.op(), remap(a.left(), map), remap(a.right(), map), a.type());
            case NumericExpr.Negate n -> new NumericExpr.Negate(remap(n.operand(), map), n.type());
            case NumericExpr.Rescale r -> new NumericExpr.Rescale(remap(r.operand(), map), r.type());
            case NumericExpr.ToDouble d -> new NumericExpr.ToDouble(remap(d.operand(), map));
        };
    }
}
