package io.numacol.exec;

import io.numacol.storage.ColumnType;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A tree of numacol operators over columnar {@link Chunk}s, which {@link PipelineExecutor} cuts
 * into pipelines at its pipeline breakers (a hash join's build side). Each node knows the types
 * of the columns it puts out; column numbers index them.
 */
public sealed interface PlanNode {

    List<ColumnType> types();

    /** The rows of {@code table} that {@code filter} keeps (null: all), as its columns {@code columns}, in that order. */
    record Scan(Table table, ColumnFilter filter, int[] columns) implements PlanNode {
        public Scan {
            columns = columns.clone();
        }

        @Override
        public List<ColumnType> types() {
            List<TableSchema.ColumnDef> defs = table.schema().columns();
            return Arrays.stream(columns).mapToObj(c -> defs.get(c).type()).toList();
        }

        @Override
        public String toString() {
            return "Scan[" + table.name() + " " + Arrays.toString(columns) + (filter == null ? "" : " " + filter) + "]";
        }
    }

    /** The input's columns {@code columns}, in that order (repeats allowed). */
    record Project(PlanNode input, int[] columns) implements PlanNode {
        public Project {
            columns = columns.clone();
        }

        @Override
        public List<ColumnType> types() {
            List<ColumnType> in = input.types();
            return Arrays.stream(columns).mapToObj(in::get).toList();
        }

        @Override
        public String toString() {
            return "Project[" + Arrays.toString(columns) + " of " + input + "]";
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
        /** Each left row with at least one match, once. */
        SEMI,
        /** Each left row without a match. */
        ANTI
    }

    /**
     * An equi-join: {@code leftKeys[i]} of the left equals {@code rightKeys[i]} of the right,
     * where NULL matches nothing unless {@code nullsEqual[i]} (IS NOT DISTINCT FROM). One side is
     * built into a hash table, the other probes it in the pipeline it belongs to: the right is
     * built unless {@code buildLeft} (only for INNER, when the left is the smaller side).
     */
    record HashJoin(PlanNode left, PlanNode right, int[] leftKeys, int[] rightKeys, boolean[] nullsEqual, JoinKind kind,
                    boolean buildLeft) implements PlanNode {
        public HashJoin {
            leftKeys = leftKeys.clone();
            rightKeys = rightKeys.clone();
            nullsEqual = nullsEqual.clone();
            if (leftKeys.length == 0 || leftKeys.length != rightKeys.length || nullsEqual.length != leftKeys.length) {
                throw new IllegalArgumentException("a hash join needs as many left keys as right keys, at least one");
            }
            if (buildLeft && kind != JoinKind.INNER) {
                throw new IllegalArgumentException("only an inner join builds its left side");
            }
            for (int i = 0; i < leftKeys.length; i++) {
                ColumnType l = left.types().get(leftKeys[i]);
                ColumnType r = right.types().get(rightKeys[i]);
                if (!comparableKeys(l, r)) {
                    throw new IllegalArgumentException("join keys of types " + l + " and " + r + " are not compared by stored value");
                }
            }
        }

        @Override
        public List<ColumnType> types() {
            List<ColumnType> out = new ArrayList<>(left.types());
            if (kind == JoinKind.INNER || kind == JoinKind.LEFT) {
                out.addAll(right.types());
            }
            return out;
        }

        @Override
        public String toString() {
            return "HashJoin[" + kind + " " + Arrays.toString(leftKeys) + "=" + Arrays.toString(rightKeys)
                    + (buildLeft ? " build left" : "") + " of " + left + ", " + right + "]";
        }
    }

    /**
     * Whether keys of these types are equal exactly when their stored values are: the same
     * storage kind, decimals of one scale (INTEGER and BIGINT both store the number itself), and
     * strings of one kind (CHAR drops its trailing blanks, VARCHAR keeps them).
     */
    static boolean comparableKeys(ColumnType a, ColumnType b) {
        if (a.storageKind() != b.storageKind()) {
            return false;
        }
        return switch (a.storageKind()) {
            case LONG -> a.scale() == b.scale() && (a.kind() == ColumnType.Kind.DATE) == (b.kind() == ColumnType.Kind.DATE)
                    && (a.kind() == ColumnType.Kind.BOOLEAN) == (b.kind() == ColumnType.Kind.BOOLEAN);
            case DOUBLE -> true;
            case STRING -> a.kind() == b.kind();
        };
    }
}
