package io.numacol.scheduler;

import io.numacol.topology.Topology;

/**
 * Where a task wants to run: anywhere ({@link #none()}), on a node ({@link #node(int)}: queued
 * in one of that node's groups, other nodes may steal it) or on a node with the hard flag
 * ({@link #hard(int)}: only workers of that node run it). Instances are shared constants, so
 * asking for one allocates nothing.
 */
public final class Affinity {
    private static final Affinity NONE = new Affinity(-1, false);
    private static final Affinity[] SOFT = new Affinity[Topology.MAX_NODES];
    private static final Affinity[] HARD = new Affinity[Topology.MAX_NODES];

    static {
        for (int i = 0; i < Topology.MAX_NODES; i++) {
            SOFT[i] = new Affinity(i, false);
            HARD[i] = new Affinity(i, true);
        }
    }

    private final int node;
    private final boolean hard;

    private Affinity(int node, boolean hard) {
        this.node = node;
        this.hard = hard;
    }

    public static Affinity none() {
        return NONE;
    }

    /** Node {@code node}, stealable by other nodes. */
    public static Affinity node(int node) {
        return SOFT[check(node)];
    }

    /** Node {@code node}, run only by that node's workers. */
    public static Affinity hard(int node) {
        return HARD[check(node)];
    }

    private static int check(int node) {
        if (node < 0 || node >= Topology.MAX_NODES) {
            throw new IllegalArgumentException("affinity node " + node + " is out of range 0.." + (Topology.MAX_NODES - 1));
        }
        return node;
    }

    public boolean isNone() {
        return node < 0;
    }

    /** The node, or -1 for none. */
    public int node() {
        return node;
    }

    public boolean isHard() {
        return hard;
    }

    /** The same node with the hard flag; none stays none. */
    public Affinity asHard() {
        return node < 0 ? NONE : HARD[node];
    }

    @Override
    public String toString() {
        return node < 0 ? "none" : (hard ? "hard(" + node + ")" : "node(" + node + ")");
    }
}
