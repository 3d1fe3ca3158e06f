package io.numacol.placement;

import io.numacol.storage.ColumnPlacement;
import io.numacol.storage.Partitioning;
import io.numacol.topology.Topology;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The thesis's placement strategies for a table's columns (§5.2): {@code RR} (each column whole
 * on one node, round-robin), {@code IVP} (IndexVector pages split over all nodes, dictionary
 * and index interleaved), {@code INTERLEAVED} (everything interleaved) and {@code NODE(k)}.
 * Physical partitioning ({@code PP}) deals a table's rows to partitions, each whole on one node.
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

    /**
     * Physical partitioning (thesis §5.2): the table's rows dealt to {@code count} partitions,
     * partition {@code p} a part (or parts) of its own on node {@code p mod nodes}, by a hash of
     * {@code keys}, by ranges of one key (bounds from the data when it is placed), or in turn.
     * The key columns are named here; the database resolves them against the table's columns.
     */
    record Partitioned(Partitioning.Kind kind, int count, List<String> keys) implements Placement {
        public Partitioned {
            Objects.requireNonNull(kind, "kind");
            keys = List.copyOf(keys);
            if (count < 1 || count > Partitioning.MAX_PARTITIONS) {
                throw new IllegalArgumentException("PP(" + count + "): a table has 1 to " + Partitioning.MAX_PARTITIONS + " partitions");
            }
            if ((kind == Partitioning.Kind.HASH && keys.isEmpty()) || (kind == Partitioning.Kind.RANGE && keys.size() != 1)
                    || (kind == Partitioning.Kind.ROUND_ROBIN && !keys.isEmpty())) {
                throw new IllegalArgumentException("PP(" + count + ") takes BY HASH (column, ...), BY RANGE (column) or ROUND ROBIN");
            }
        }

        /** A part of partition {@code partition} goes whole to this node. */
        public static int nodeOf(int partition, Topology topology) {
            return partition % topology.nodeCount();
        }

        /** Parts of a PP table are placed by their partition ({@link #nodeOf}); this is for parts of none. */
        @Override
        public ColumnPlacement forColumn(int columnIndex, Topology topology) {
            return ColumnPlacement.onNode(0);
        }

        private static final Pattern PP = Pattern.compile("PP\\(([0-9]+)\\)(?:(BYHASH|BYRANGE)\\((.+)\\)|(ROUNDROBIN))?",
                Pattern.CASE_INSENSITIVE);

        /** {@code spec} with its blanks taken out as {@code s}; the column names keep their case. */
        static Partitioned parse(String spec, String s) {
            Matcher m = PP.matcher(s);
            if (!m.matches() || (m.group(2) == null && m.group(4) == null)) {
                throw new IllegalArgumentException("placement '" + spec + "': write PP(n) BY HASH (column, ...), PP(n) BY RANGE (column)"
                        + " or PP(n) ROUND ROBIN");
            }
            int count;
            try {
                count = Integer.parseInt(m.group(1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("PP(" + m.group(1) + "): a table has 1 to " + Partitioning.MAX_PARTITIONS + " partitions");
            }
            if (m.group(4) != null) {
                return new Partitioned(Partitioning.Kind.ROUND_ROBIN, count, List.of());
            }
            List<String> keys = Arrays.stream(m.group(3).split(",")).map(k -> k.replace("\"", "")).toList();
            if (keys.stream().anyMatch(String::isEmpty)) {
                throw new IllegalArgumentException("placement '" + spec + "': an empty column name in the key");
            }
            return new Partitioned(m.group(2).equalsIgnoreCase("BYHASH") ? Partitioning.Kind.HASH : Partitioning.Kind.RANGE, count, keys);
        }

        @Override
        public String toString() {
            return switch (kind) {
                case HASH -> "PP(" + count + ") BY HASH (" + String.join(", ", keys) + ")";
                case RANGE -> "PP(" + count + ") BY RANGE (" + keys.getFirst() + ")";
                case ROUND_ROBIN -> "PP(" + count + ") ROUND ROBIN";
            };
        }
    }

    /**
     * {@code RR}, {@code IVP}, {@code INTERLEAVED}, {@code NODE(k)}, {@code PP(n) BY HASH (col,
     * ...)}, {@code PP(n) BY RANGE (col)} or {@code PP(n) ROUND ROBIN}, any case.
     */
    static Placement parse(String spec) {
        String s = spec == null ? "" : spec.trim().toUpperCase(Locale.ROOT).replace(" ", "");
        if (s.startsWith("PP")) {
            return Partitioned.parse(spec, spec.trim().replaceAll("\\s+", ""));
        }
        return switch (s) {
            case "RR" -> new RoundRobin(0);
            case "IVP" -> new IndexVectorPartitioned();
            case "INTERLEAVED" -> new Interleaved();
            default -> {
                if (s.startsWith("NODE(") && s.endsWith(")")) {
                    String n = s.substring(5, s.length() - 1);
                    try {
                        yield new Node(Integer.parseInt(n));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("placement '" + spec + "': '" + n + "' is not a node id");
                    }
                }
                throw new IllegalArgumentException("unknown placement '" + spec + "': use RR, IVP, INTERLEAVED, NODE(k)"
                        + " or PP(n) BY HASH (column, ...), BY RANGE (column) or ROUND ROBIN");
            }
        };
    }
}
