package io.numacol.exec;

import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.StorageKind;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A tree of numacol operators over columnar {@link Chunk}s, which {@link PipelineExecutor} cuts
 * into pipelines at its pipeline breakers (a hash join's build side, an aggregate, a sort). Each node knows the types
 * of the columns it puts out; column numbers index them.
 */
public sealed interface PlanNode {

    List<ColumnType> types();

    /**
     * The rows of {@code table} that {@code filter} keeps (null: all), as its columns {@code
     * columns}, in that order. Column {@link #rowIdColumn} is no column of the table but each
     * row's {@link io.numacol.storage.TablePart#rowId}, a BIGINT: what an UPDATE or DELETE names
     * its rows by.
     */
    record Scan(Table table, ColumnFilter filter, int[] columns) implements PlanNode {
        public Scan {
            columns = columns.clone();
        }

        /** The column number of the row id: one past the table's last column. */
        public static int rowIdColumn(Table table) {
            return table.schema().size();
        }

        boolean isRowId(int column) {
            return column == rowIdColumn(table);
        }

        /** {@link #columns}, less the row id: the table columns the scan reads. */
        int[] tableColumns() {
            return Arrays.stream(columns).filter(c -> !isRowId(c)).toArray();
        }

        @Override
        public List<ColumnType> types() {
            List<TableSchema.ColumnDef> defs = table.schema().columns();
            return Arrays.stream(columns).mapToObj(c -> isRowId(c) ? ROW_ID_TYPE : defs.get(c).type()).toList();
        }

        private static final ColumnType ROW_ID_TYPE = ColumnType.bigint();

        @Override
        public String toString() {
            return "Scan[" + table.name() + " " + Arrays.toString(columns) + (filter == null ? "" : " " + filter) + "]";
        }
    }

    /**
     * One pass over one table on its vids: the rows of {@code table} that {@code filter} keeps
     * (null: all), as {@code projections} evaluated on their internal values, then, when
     * {@code aggregation} is not null, grouped on the vids of its keys (a perfect hash per part,
     * see {@link VidAggregate}), then ordered, offset and fetched by {@code ordering} (null:
     * none). Without aggregate it is the {@link RowScan}, whose rows can leave as the scan goes.
     * {@code output} turns each row as computed into the internal values of {@code types} (the
     * Java classes a caller's SQL types want); {@code types} may be null for a plan's top node,
     * which is never stored.
     */
    record VidScan(Table table, ColumnFilter filter, List<Projection> projections, Aggregation aggregation,
                   Ordering ordering, List<ColumnType> types, UnaryOperator<Object[]> output) implements PlanNode {
        public VidScan {
            projections = List.copyOf(projections);
            types = types == null ? null : List.copyOf(types);
            output = output == null ? UnaryOperator.identity() : output;
        }

        /** A plan's top node, its rows left as computed. */
        public VidScan(Table table, ColumnFilter filter, List<Projection> projections, Aggregation aggregation, Ordering ordering) {
            this(table, filter, projections, aggregation, ordering, null, null);
        }

        /** Whether rows can leave before the whole table is scanned: no aggregate and no ORDER BY to wait for. */
        public boolean streams() {
            return aggregation == null && (ordering == null || ordering.keys().isEmpty());
        }

        @Override
        public List<ColumnType> types() {
            if (types == null) {
                throw new IllegalStateException("a one-table scan without types can only be a plan's top");
            }
            return types;
        }

        @Override
        public String toString() {
            return "VidScan[" + table.name() + (filter == null ? "" : " " + filter) + " " + projections
                    + (aggregation == null ? "" : " " + aggregation) + (ordering == null ? "" : " " + ordering) + "]";
        }
    }

    /** Columns computed from each input row: input columns (repeats allowed), constants, arithmetic. */
    record Project(PlanNode input, List<ChunkExpr> exprs) implements PlanNode {
        public Project {
            exprs = List.copyOf(exprs);
            List<ColumnType> in = input.types();
            for (ChunkExpr e : exprs) {
                if (e instanceof ChunkExpr.Column c && !in.get(c.column()).equals(c.type())) {
                    throw new IllegalArgumentException("column " + c.column() + " is " + in.get(c.column()) + ", not " + c.type());
                }
            }
        }

        /** The input's columns {@code columns}, in that order. */
        public Project(PlanNode input, int[] columns) {
            this(input, Arrays.stream(columns).<ChunkExpr>mapToObj(c -> new ChunkExpr.Column(c, input.types().get(c))).toList());
        }

        @Override
        public List<ColumnType> types() {
            return exprs.stream().map(ChunkExpr::type).toList();
        }

        /** The input columns picked, or null when something is computed. */
        int[] columns() {
            return exprs.stream().allMatch(e -> e instanceof ChunkExpr.Column)
                    ? exprs.stream().mapToInt(e -> ((ChunkExpr.Column) e).column()).toArray() : null;
        }

        @Override
        public String toString() {
            return "Project[" + exprs + " of " + input + "]";
        }
    }

    /** The input's rows for which {@code condition} is TRUE. */
    record Filter(PlanNode input, RowPredicate condition) implements PlanNode {
        @Override
        public List<ColumnType> types() {
            return input.types();
        }

        @Override
        public String toString() {
            return "Filter[" + condition + " of " + input + "]";
        }
    }

    /** What a hash join puts out: the left's columns then the right's, or (SEMI, ANTI) the left's alone. */
    enum JoinKind {
        /** Pairs of rows whose keys match. */
        INNER,
        /** INNER, plus each left row without a match, with NULL for the right's columns. */
        LEFT,
        /** INNER, plus each right row without a match, with NULL for the left's columns. */
        RIGHT,
        /** LEFT and RIGHT together. */
        FULL,
        /** Each left row with at least one match, once. */
        SEMI,
        /** Each left row without a match. */
        ANTI
    }

    /**
     * An equi-join: {@code leftKeys[i]} of the left equals {@code rightKeys[i]} of the right,
     * where NULL matches nothing unless {@code nullsEqual[i]} (IS NOT DISTINCT FROM). Without
     * keys every pair is tested by the residual alone, which only pays when the build side is a
     * row or a few (a scalar subquery's). One side is
     * built into a hash table, the other probes it in the pipeline it belongs to: the right is
     * built unless {@code buildLeft} (the planner picks the smaller side). When the build side's
     * rows decide what is put out (it is the left of a SEMI or ANTI join, or the outer side of
     * an outer join), the probe marks the build rows it matched, and the join is a pipeline
     * breaker: what it puts out of the build side follows when the probe is done. A pair
     * of rows whose keys match joins only if {@code residual} (null: none) is TRUE on the left's
     * columns followed by the right's, whatever the join's kind.
     */
    record HashJoin(PlanNode left, PlanNode right, int[] leftKeys, int[] rightKeys, boolean[] nullsEqual, JoinKind kind,
                    boolean buildLeft, RowPredicate residual) implements PlanNode {
        public HashJoin {
            leftKeys = leftKeys.clone();
            rightKeys = rightKeys.clone();
            nullsEqual = nullsEqual.clone();
            if (leftKeys.length != rightKeys.length || nullsEqual.length != leftKeys.length) {
                throw new IllegalArgumentException("a hash join needs as many left keys as right keys");
            }
            for (int i = 0; i < leftKeys.length; i++) {
                ColumnType l = left.types().get(leftKeys[i]);
                ColumnType r = right.types().get(rightKeys[i]);
                if (!comparableKeys(l, r)) {
                    throw new IllegalArgumentException("join keys of types " + l + " and " + r + " are not compared by stored value");
                }
            }
        }

        public HashJoin(PlanNode left, PlanNode right, int[] leftKeys, int[] rightKeys, boolean[] nullsEqual, JoinKind kind,
                        boolean buildLeft) {
            this(left, right, leftKeys, rightKeys, nullsEqual, kind, buildLeft, null);
        }

        @Override
        public List<ColumnType> types() {
            List<ColumnType> out = new ArrayList<>(left.types());
            if (kind != JoinKind.SEMI && kind != JoinKind.ANTI) {
                out.addAll(right.types());
            }
            return out;
        }

        /** Whether the probe side's rows without a match are put out (NULLs beside) or, for SEMI and ANTI, decide alone. */
        boolean probeDecides() {
            return switch (kind) {
                case INNER -> false;
                case LEFT, SEMI, ANTI -> !buildLeft;
                case RIGHT -> buildLeft;
                case FULL -> true;
            };
        }

        /** Whether the build side's rows are put out after the probe: matched (SEMI), unmatched (ANTI, outer). */
        boolean buildDecides() {
            return switch (kind) {
                case INNER -> false;
                case LEFT, SEMI, ANTI -> buildLeft;
                case RIGHT -> !buildLeft;
                case FULL -> true;
            };
        }

        /** The left's columns followed by the right's, what {@code residual} reads. */
        List<ColumnType> pairTypes() {
            List<ColumnType> out = new ArrayList<>(left.types());
            out.addAll(right.types());
            return out;
        }

        @Override
        public String toString() {
            return "HashJoin[" + kind + " " + Arrays.toString(leftKeys) + "=" + Arrays.toString(rightKeys)
                    + (residual == null ? "" : " and " + residual) + (buildLeft ? " build left" : "") + " of " + left + ", " + right + "]";
        }
    }

    /**
     * The groups of the input's rows with equal {@code keys} (NULLs in one group), each as its keys
     * followed by its aggregates; without keys one row even over no rows. {@code types} are the
     * output's types: a COUNT is a BIGINT, a SUM has its input's storage kind and scale, a MIN or
     * MAX its input's type.
     */
    record Aggregate(PlanNode input, int[] keys, List<AggregateCall> calls, List<ColumnType> types) implements PlanNode {
        public Aggregate {
            keys = keys.clone();
            calls = List.copyOf(calls);
            types = List.copyOf(types);
            List<ColumnType> in = input.types();
            if (types.size() != keys.length + calls.size()) {
                throw new IllegalArgumentException("an aggregate puts out its keys and its calls, " + types.size() + " types given");
            }
            for (int i = 0; i < calls.size(); i++) {
                AggregateCall call = calls.get(i);
                ColumnType out = types.get(keys.length + i);
                boolean fits = switch (call.kind()) {
                    case COUNT_STAR, COUNT -> out.storageKind() == StorageKind.LONG && out.scale() == 0;
                    case SUM, SUM0 -> in.get(call.input()).storageKind() == out.storageKind()
                            && in.get(call.input()).storageKind() != StorageKind.STRING
                            && in.get(call.input()).scale() == out.scale();
                    case MIN, MAX -> in.get(call.input()).storageKind() == out.storageKind() && in.get(call.input()).scale() == out.scale();
                };
                if (!fits) {
                    throw new IllegalArgumentException(call + " cannot put out " + out);
                }
                if (call.filter() >= 0 && in.get(call.filter()).kind() != ColumnType.Kind.BOOLEAN) {
                    throw new IllegalArgumentException(call + " filters on a column of " + in.get(call.filter()));
                }
            }
        }

        @Override
        public String toString() {
            return "Aggregate[" + Arrays.toString(keys) + " " + calls + " of " + input + "]";
        }
    }

    /** The input's rows in {@code ordering}'s order, its offset skipped and at most its fetch kept. */
    record Sort(PlanNode input, Ordering ordering) implements PlanNode {
        @Override
        public List<ColumnType> types() {
            return input.types();
        }

        @Override
        public String toString() {
            return "Sort[" + ordering + " of " + input + "]";
        }
    }

    /**
     * Whether keys of these types are equal exactly when their stored values are: the same
     * storage kind, decimals of one scale (INTEGER and BIGINT both store the number itself),
     * dates, timestamps and times only with their own kind (of any precision: all store milliseconds),
     * and strings of one kind (CHAR drops its trailing blanks, VARCHAR keeps them).
     */
    static boolean comparableKeys(ColumnType a, ColumnType b) {
        if (a.storageKind() != b.storageKind()) {
            return false;
        }
        return switch (a.storageKind()) {
            case LONG -> a.scale() == b.scale() && notNumber(a) == notNumber(b) && (!notNumber(a) || a.kind() == b.kind());
            case DOUBLE -> true;
            case STRING -> a.kind() == b.kind();
        };
    }

    private static boolean notNumber(ColumnType t) {
        return !t.codec().numeric();
    }
}
