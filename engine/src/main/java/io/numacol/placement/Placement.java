package io.numacol.placement;

import io.numacol.storage.ColumnPlacement;
import io.numacol.topology.Topology;

import java.util.Locale;

/**
 * The thesis's placement strategies for a table's columns (§5.2): {@code RR} (each column whole
 * on one node, round-robin), {@code IVP} (IndexVector pages split over all nodes, dictionary
 * and index interleaved), {@code INTERLEAVED} (everything interleaved) and {@code NODE(k)}.
 * Physical partitioning (PP) is a table with one part per node, each part placed {@code NODE(k)}.
 */
public sealed interface Placement {

    /** Where the column at {@code columnIndex} goes on {@code topology}. */
    ColumnPlacement forColumn(int columnIndex, Topology topology);

    /** Throws IllegalArgumentException when this placement names a node {@code topology} lacks. */
    default void checkAgainst(Topology topology) {
    }

    record Node(int node) implements Placement {
        @Override
        public ColumnPlacement forColumn(int columnIndex, Topology topology) {
            checkAgainst(topology);
            return ColumnPlacement.onNode(node);
        }

        @Override
        public void checkAgainst(Topology topology) {
            topology.checkNode(node);
        }

        @Override
        public String toString() {
            return "NODE(" + node + ")";
        }
    }

    record RoundRobin(int firstNode) implements Placement {
        @Override
        public ColumnPlacement forColumn(int columnIndex, Topology topology) {
            return ColumnPlacement.onNode((firstNode + columnIndex) % topology.nodeCount());
        }

        @Override
        public String toString() {
            return "RR";
        }
    }

    record Interleaved() implements Placement {
        @Override
        public ColumnPlacement forColumn(int columnIndex, Topology topology) {
            return ColumnPlacement.interleaved(topology.nodeIds());
        }

        @Override
        public String toString() {
            return "INTERLEAVED";
        }
    }

    record IndexVectorPartitioned() implements Placement {
        @Override
        public ColumnPlacement forColumn(int columnIndex, Topology topology) {
            return ColumnPlacement.indexVectorPartitioned(topology.nodeIds());
        }

        @Override
        public String toString() {
            return "IVP";
        }
    }

    /** {@code RR}, {@code IVP}, {@code INTERLEAVED} or {@code NODE(k)}, any case. */
    static Placement parse(String spec) {
        String s = spec == null ? "" : spec.trim().toUpperCase(Locale.ROOT).replace(" ", "");
        switch (s) {
            case "RR": return new RoundRobin(0);
            case "IVP": return new IndexVectorPartitioned();
            case "INTERLEAVED": return new Interleaved();
            default:
                if (s.startsWith("NODE(") && s.endsWith(")")) {
                    String n = s.substring(5, s.length() - 1);
                    try {
                        return new Node(Integer.parseInt(n));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("placement '" + spec + "': '" + n + "' is not a node id");
                    }
                }
                throw new IllegalArgumentException("unknown placement '" + spec + "': use RR, IVP, INTERLEAVED or NODE(k)");
        }
    }
}
