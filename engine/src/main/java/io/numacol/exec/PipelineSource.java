package io.numacol.exec;

import io.numacol.storage.TableSnapshot;

import java.util.HashMap;
import java.util.Map;

/** Where a pipeline's rows come from: a table scan, or the rows a pipeline breaker below made. */
sealed interface PipelineSource {

    /**
     * A table scan, with the build keys of hash joins directly above it tested on the vids of
     * their columns ({@code keys}, table column to keys) before a value is decoded; over the
     * parts of {@code pinned} (a snapshot the execution holds) or, when null, of a snapshot
     * taken when the pipeline runs.
     */
    record TableSource(PlanNode.Scan scan, Map<Integer, KeyFilter> keys, TableSnapshot pinned) implements PipelineSource {
        public TableSource {
            keys = Map.copyOf(keys);
        }

        /** This scan with {@code filter}'s keys tested on {@code tableColumn} too; null if that column has keys already. */
        TableSource withKeys(int tableColumn, KeyFilter filter) {
            Map<Integer, KeyFilter> more = new HashMap<>(keys);
            if (more.putIfAbsent(tableColumn, filter) != null) {
                return null;
            }
            return new TableSource(scan, more, pinned);
        }
    }

    /** Rows a breaker made, run a few pages per task on the node whose worker filled them. */
    record StoreSource(RowStore rows) implements PipelineSource {
    }
}
