package io.numacol.memory;

import java.util.Arrays;

/**
 * Where the pages of a new allocation go, in numacol node ids: all on one node, or interleaved
 * page by page over a set of nodes (in ascending node order, as the kernel interleaves).
 */
public sealed interface MemoryPlacement {

    static MemoryPlacement onNode(int node) {
        return new OnNode(node);
    }

    static MemoryPlacement interleaved(int... nodes) {
        return new Interleaved(nodes);
    }

    record OnNode(int node) implements MemoryPlacement {
        public OnNode {
            if (node < 0) {
                throw new IllegalArgumentException("node id must be >= 0, got " + node);
            }
        }
    }

    /** {@code nodes} is kept sorted and without duplicates. */
    record Interleaved(int[] nodes) implements MemoryPlacement {
        public Interleaved {
            if (nodes.length == 0) {
                throw new IllegalArgumentException("interleaving needs at least one node");
            }
            nodes = Arrays.stream(nodes).sorted().distinct().toArray();
            if (nodes[0] < 0) {
                throw new IllegalArgumentException("node id must be >= 0, got " + nodes[0]);
            }
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Interleaved other && Arrays.equals(nodes, other.nodes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(nodes);
        }

        @Override
        public String toString() {
            return "Interleaved" + Arrays.toString(nodes);
        }
    }
}
