package io.numacol.topology;

import java.util.Arrays;
import java.util.BitSet;

/**
 * One node of a {@link Topology}: numacol's dense id, the kernel node its memory lives on, its
 * CPUs, its memory size and its distances to every node (indexed by numacol id, 10 = local).
 */
public final class NumaNode {
    private final int id;
    private final int osNode;
    private final int[] cpus;
    private final long memoryBytes;
    private final int[] distances;

    NumaNode(int id, int osNode, int[] cpus, long memoryBytes, int[] distances) {
        this.id = id;
        this.osNode = osNode;
        this.cpus = cpus.clone();
        this.memoryBytes = memoryBytes;
        this.distances = distances.clone();
    }

    public int id() {
        return id;
    }

    /** The kernel's node id that backs this node's memory (for a fake node, the real node). */
    public int osNode() {
        return osNode;
    }

    public int[] cpus() {
        return cpus.clone();
    }

    public BitSet cpuSet() {
        BitSet set = new BitSet();
        for (int cpu : cpus) {
            set.set(cpu);
        }
        return set;
    }

    public long memoryBytes() {
        return memoryBytes;
    }

    public int distanceTo(int node) {
        return distances[node];
    }

    public int[] distances() {
        return distances.clone();
    }

    @Override
    public String toString() {
        return "node " + id + " (os node " + osNode + ", cpus " + Arrays.toString(cpus) + ", "
                + (memoryBytes >> 20) + " MiB, distances " + Arrays.toString(distances) + ")";
    }
}
