package io.numacol.exec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One task's groups by value, cut into hash partitions (morsel paper §6.3): partition p of every
 * task holds the same keys, so the merge takes each partition of all tasks on its own.
 */
final class PartitionedGroups {
    private final List<Map<List<Object>, Accumulator[]>> partitions;

    PartitionedGroups(int partitions) {
        this.partitions = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            this.partitions.add(new HashMap<>());
        }
    }

    /** Adds a group the task has not seen before. */
    void put(List<Object> key, Accumulator[] accs) {
        partitions.get(Math.floorMod(key.hashCode(), partitions.size())).put(key, accs);
    }

    Map<List<Object>, Accumulator[]> partition(int p) {
        return partitions.get(p);
    }

    /** The number of groups in all partitions. */
    long size() {
        return partitions.stream().mapToLong(Map::size).sum();
    }
}
