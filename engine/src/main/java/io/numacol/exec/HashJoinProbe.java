package io.numacol.exec;

import io.numacol.storage.types.ColumnType;

import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * The probe of a hash join. The pairs of a chunk's rows and the build rows whose keys match
 * are gathered into a chunk of the join's left then right columns; the residual condition,
 * if any, is evaluated on it; what passes is put out (INNER and outer joins), marks its probe
 * row as matched (when the probe side decides: SEMI, ANTI, the outer side's rows without a
 * match, put out at the end of the chunk), and marks its build row (when the build side
 * decides: its rows are put out after the probe, see {@link HashJoinBuild#buildRows}).
 */
final class HashJoinProbe implements PipelineOperator {
    private final JoinHashTable table;
    private final int[] keys;
    private final boolean[] nullsEqual;
    private final RowPredicate residual;
    /** The probe's and the build's columns that a pair fills in, numbered within their side. */
    private final int[] probeColumns;
    private final int[] buildColumns;
    /** Where the probe's and the build's columns start in a pair, and how many each has. */
    private final int probeAt;
    private final int buildAt;
    private final int probeWidth;
    private final int buildWidth;
    private final boolean pairsOut;
    /** SEMI: put out the matched probe rows; ANTI and outer: the others. */
    private final boolean probeDecides;
    private final boolean wanted;
    /** The build rows matched, shared by all tasks (plain writes of true: the task group's end publishes them), or null. */
    private final boolean[] marks;
    private final Chunk pairs;
    private final int[] pairProbe = new int[Chunk.CAPACITY];
    private final int[] pairBuild = new int[Chunk.CAPACITY];
    private final boolean[] keep = new boolean[Chunk.CAPACITY];
    private final boolean[] matched = new boolean[Chunk.CAPACITY];
    private final long[] hashes = new long[Chunk.CAPACITY];
    private final boolean[] skip = new boolean[Chunk.CAPACITY];
    private final int[] candidates = new int[Chunk.CAPACITY];
    /** The candidates' chain links, read only to bring their rows into the cache together. */
    private final long[] touched = new long[Chunk.CAPACITY];
    private final ConditionKernel residualKernel;
    /** The probe rows put out on their own: SEMI and ANTI as they are, an outer join's with NULLs beside. */
    private final Chunk rest;

    /** {@code read}: the output columns that are read above (all when null); the others are not filled in. */
    HashJoinProbe(JoinHashTable table, int[] keys, PlanNode.HashJoin join, boolean[] marks, int[] read) {
        this.table = table;
        this.keys = keys;
        this.nullsEqual = join.nullsEqual();
        this.residual = join.residual();
        this.residualKernel = residual == null ? null : new ConditionKernel(residual);
        this.marks = marks;
        boolean buildFirst = join.buildLeft();
        List<ColumnType> pairTypes = join.pairTypes();
        this.probeWidth = (buildFirst ? join.right() : join.left()).types().size();
        this.buildWidth = pairTypes.size() - probeWidth;
        this.probeAt = buildFirst ? buildWidth : 0;
        this.buildAt = buildFirst ? 0 : probeWidth;
        this.pairsOut = join.kind() != PlanNode.JoinKind.SEMI && join.kind() != PlanNode.JoinKind.ANTI;
        this.probeDecides = join.probeDecides();
        this.wanted = join.kind() == PlanNode.JoinKind.SEMI;
        this.pairs = new Chunk(pairTypes).allocate();
        this.rest = probeDecides ? new Chunk(join.types()).allocate() : null;
        // an output column is the pair's column of the same number (SEMI and ANTI put out the left's)
        BitSet filled = new BitSet();
        if (read == null) {
            filled.set(0, pairTypes.size());
        } else {
            Arrays.stream(read).forEach(filled::set);
            if (residual != null) {
                filled.or(ColumnPruning.reads(residual));
            }
        }
        this.probeColumns = filled.get(probeAt, probeAt + probeWidth).stream().toArray();
        this.buildColumns = filled.get(buildAt, buildAt + buildWidth).stream().toArray();
    }

    @Override
    public void push(Chunk in, ChunkSink sink) {
        Arrays.fill(matched, 0, in.size, false);
        // without a residual nor pairs to put out, a key match alone decides
        boolean keysDecide = residual == null && !pairsOut;
        JoinHashTable.hashes(in, keys, hashes);
        JoinHashTable.unmatchable(in, keys, nullsEqual, skip);
        // each row's bucket first, then its first candidate's row, then the chains: the cache
        // misses of a loop's rows overlap, rather than one per probe row in turn
        for (int p = 0; p < in.size; p++) {
            candidates[p] = skip[p] ? -1 : table.first(hashes[p]);
        }
        for (int p = 0; p < in.size; p++) {
            touched[p] = candidates[p] < 0 ? 0 : table.touch(candidates[p]);
        }
        for (int p = 0; p < in.size; p++) {
            long hash = hashes[p];
            for (int row = candidates[p]; row >= 0; row = table.next(row, hash)) {
                if (!table.matches(row, in, keys, p)) {
                    continue;
                }
                if (keysDecide) {
                    if (marks == null) {
                        matched[p] = true;
                        break;
                    }
                    if (!marks[row]) {
                        marks[row] = true; // read first: rows matched often stay in every core's cache
                    }
                    continue;
                }
                pairProbe[pairs.size] = p;
                pairBuild[pairs.size] = row;
                if (++pairs.size == Chunk.CAPACITY) {
                    flush(in, sink);
                }
            }
        }
        flush(in, sink);
        if (probeDecides) {
            rest.size = 0;
            for (int p = 0; p < in.size; p++) {
                if (matched[p] == wanted) {
                    int r = rest.size++;
                    for (int c : probeColumns) {
                        rest.copy(probeAt + c, r, in, c, p);
                    }
                    for (int c = 0; pairsOut && c < buildColumns.length; c++) {
                        rest.setNull(buildAt + buildColumns[c], r);
                    }
                }
            }
            if (rest.size > 0) {
                sink.accept(rest);
            }
        }
    }

    /** Gathers the pending pairs, keeps those the residual condition passes, and puts them out or marks their rows. */
    private void flush(Chunk in, ChunkSink sink) {
        int n = pairs.size;
        if (n == 0) {
            return;
        }
        for (int c : probeColumns) {
            pairs.gather(probeAt + c, in, c, pairProbe, n);
        }
        for (int c : buildColumns) {
            table.gather(c, pairBuild, n, pairs, buildAt + c);
        }
        boolean all = residual == null;
        if (all) {
            Arrays.fill(keep, 0, n, true);
        } else {
            residualKernel.keep(pairs, keep);
        }
        for (int i = 0; i < n; i++) {
            boolean k = keep[i];
            matched[pairProbe[i]] |= k;
            if (k && marks != null && !marks[pairBuild[i]]) {
                marks[pairBuild[i]] = true;
            }
        }
        if (pairsOut) {
            if (!all) {
                pairs.compact(keep);
            }
            if (pairs.size > 0) {
                sink.accept(pairs);
            }
        }
        pairs.size = 0;
    }
}
