package io.numacol.calcite.rel;

import io.numacol.exec.PlanNode;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSnapshot;
import org.apache.calcite.DataContext;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexInputRef;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * A tree of {@link NumacolRel}s compiled, at one execution, to the pipeline executor's plan: each
 * operator makes its own node ({@link NumacolRel#implement(PipelineImplementor)}), its filters
 * bound to the execution's parameters ({@link #root}), and asks here for its inputs' nodes
 * ({@link #visit}). Equal subtrees compile to one node.
 */
public final class PipelineImplementor {
    /**
     * Each subtree's text, made once per subtree rather than at each execution of a prepared or
     * cached plan (rels are equal only to themselves, so the map holds each plan's own nodes).
     */
    private static final Map<RelNode, String> SHAPES = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * Groups up to this many a one-table aggregate below a pipeline runs on vids ({@link
     * PlanNode.VidScan}); with more, the hash aggregate over decoded values: the aggregate on vids
     * merges its tasks' groups on boxed keys, whose cost grows with the groups.
     */
    private static final long FEW_GROUPS = 1 << 10;

    private final DataContext root;
    /** The nodes compiled so far, by their subtree's text. */
    private final Map<String, PlanNode> compiled = new HashMap<>();

    PipelineImplementor(DataContext root) {
        this.root = root;
    }

    /** The execution whose parameters filters and expressions are bound to. */
    DataContext root() {
        return root;
    }

    /** {@code rel} as the pipeline executor's plan node, filters bound to {@link #root}'s parameters. */
    PlanNode visit(RelNode rel) {
        // equal subtrees (Q15's revenue view, used twice) compile to one node, which the executor runs once
        String plan = SHAPES.computeIfAbsent(rel, RelOptUtil::toString);
        PlanNode known = compiled.get(plan);
        if (known == null) {
            known = ((NumacolRel) rel).implement(this);
            compiled.put(plan, known);
        }
        return known;
    }

    /**
     * Whether a one-table aggregate has at most {@link #FEW_GROUPS} groups, as far as the
     * dictionaries of its key columns tell (the largest per part, a lower bound on the column's
     * distinct values): then grouping on vids into arrays wins; with many groups the hash
     * aggregation over decoded values does, since the vid path merges boxed keys.
     */
    static boolean fewGroups(NumacolAggregate agg) {
        RelNode input = agg.getInput();
        List<Integer> keys = agg.getGroupSet().asList();
        if (input instanceof NumacolProject p) {
            keys = keys.stream().map(k -> ((RexInputRef) p.getProjects().get(k)).getIndex()).toList();
            input = p.getInput();
        }
        while (input instanceof NumacolFilter f) {
            input = f.getInput();
        }
        Table table = ((NumacolTableScan) input).numacolTable().table();
        double groups = 1;
        try (TableSnapshot snapshot = table.snapshot()) {
            for (int key : keys) {
                int largest = 1;
                for (TablePart part : snapshot.parts()) {
                    largest = Math.max(largest, part.column(key).dictionary().size());
                }
                groups *= largest;
            }
        }
        return groups <= FEW_GROUPS;
    }

    /**
     * A one-table aggregate below a join or a computed projection, run on vids: the pipeline
     * executor's hash aggregation over decoded values cannot match its grouping on vids when
     * groups are few.
     */
    PlanNode oneTableRows(RelNode rel) {
        return OneTableImplementor.of(rel).plan(root, RowExpressions.chunkTypes(rel));
    }
}
