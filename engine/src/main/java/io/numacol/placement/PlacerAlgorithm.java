package io.numacol.placement;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The DataPlacer's decision (thesis §6.3, Algorithms 1-3 and Table 6.1), without side effects:
 * given each node's and each placement unit's utilization, the one action to take this period,
 * if any. Moving a unit is tried before partitioning one, for the pair of nodes with the largest
 * CPU imbalance first and the hottest unit of the hotter node first; an action is taken only when
 * the hotter node is saturated, the imbalance passes the threshold, the imbalance afterwards is
 * smaller (assuming, as the thesis does, that the moved data gains no utilization: §6.3.3 shows
 * the imbalance then never grows) and the colder node's memory throughput stays under its
 * maximum. Units whose utilization changed within the time the action would take are not
 * eligible (Algorithm 1): the placer neither acts at once on a burst nor waits long on a trend.
 * Units of the placer's partitioning that were idle that long are merged onto the coldest node.
 */
public final class PlacerAlgorithm {
    /**
     * Table 6.1, and the speeds the eligibility windows derive from.
     *
     * @param period         c_p: how often the placer decides (1 s)
     * @param eligibility    c_e: the largest relative change of a unit's utilization between its
     *                       recent and its past average that still lets it be moved (0.3)
     * @param imbalance      c_i: the CPU imbalance between two nodes, as a share of a node's
     *                       cores, above which the placer acts (0.4)
     * @param saturation     c_s: the share of its cores a node must be busy to count as saturated (0.7)
     * @param moveNanosPerPage      what moving one page takes (calibrated at start-up)
     * @param partitionNanosPerPage what repartitioning one page takes (calibrated at start-up)
     */
    public record Parameters(Duration period, double eligibility, double imbalance, double saturation,
                             double moveNanosPerPage, double partitionNanosPerPage) {
        public Parameters {
            if (period.isNegative() || period.isZero()) {
                throw new IllegalArgumentException("the placer's period must be positive, got " + period);
            }
        }

        public static Parameters defaults(Duration period, double moveNanosPerPage, double partitionNanosPerPage) {
            return new Parameters(period, 0.3, 0.4, 0.7, moveNanosPerPage, partitionNanosPerPage);
        }
    }

    /** A node: its cores, the memory throughput it can serve, and its recent utilization. */
    public record NodeLoad(int node, int cores, double maxBytesPerSecond, Utilization.Rate recent) {
    }

    /** What the placer may move, partition or merge: a table part (the thesis's TBP and its RUH). */
    public interface Unit {
        String table();

        int node();

        long pages();

        /** Pieces the placer has cut the unit's original part into (1: never partitioned). */
        int partitions();

        /** Its average utilization over the last {@code window}. */
        Utilization.Rate rate(Duration window);
    }

    /** A table the placer partitioned, with the pieces to merge back. */
    public record Partitioned(String table, List<Unit> pieces) {
    }

    /** What the placer does, and the figures that justified it. */
    public sealed interface Action {
        String why();
    }

    public record Move(Unit unit, int from, int to, String why) implements Action {
    }

    /** Cut {@code unit} in two: one half stays on {@code from}, the other goes to {@code to}. */
    public record Partition(Unit unit, int from, int to, String why) implements Action {
    }

    public record Merge(Partitioned table, int to, String why) implements Action {
    }

    private final Parameters parameters;

    public PlacerAlgorithm(Parameters parameters) {
        this.parameters = parameters;
    }

    public Parameters parameters() {
        return parameters;
    }

    /** Algorithm 1: a unit's recent figures and whether it may be moved or partitioned now. */
    record Info(Unit unit, double cpu, double mem, boolean active, boolean canMove, boolean canPartition) {
    }

    Info info(Unit unit, int nodes) {
        Utilization.Rate recent = unit.rate(parameters.period);
        boolean active = recent.busyCores() > 0 && recent.bytesPerSecond() > 0;
        Duration move = Duration.ofNanos((long) (unit.pages() * parameters.moveNanosPerPage * 2)); // queries wait meanwhile
        boolean canMove = stable(recent, unit.rate(max(move, parameters.period)));
        boolean canPartition = canMove && 2 * unit.partitions() <= nodes;
        if (canPartition) {
            Duration partition = move.plusNanos((long) (unit.pages() * parameters.partitionNanosPerPage));
            canPartition = stable(recent, unit.rate(max(partition, parameters.period)));
        }
        return new Info(unit, recent.busyCores(), recent.bytesPerSecond(), active, canMove, canPartition);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    private boolean stable(Utilization.Rate recent, Utilization.Rate past) {
        double ce = parameters.eligibility;
        return Math.abs(recent.busyCores() - past.busyCores()) < ce * recent.busyCores()
                && Math.abs(recent.bytesPerSecond() - past.bytesPerSecond()) < ce * recent.bytesPerSecond();
    }

    /** Algorithm 3, one period: the action to take, if any. */
    public Optional<Action> decide(List<NodeLoad> nodes, List<? extends Unit> units, List<Partitioned> partitioned) {
        List<List<Info>> byNode = new ArrayList<>();
        for (int n = 0; n < nodes.size(); n++) {
            byNode.add(new ArrayList<>());
        }
        for (Unit u : units) {
            Info info = info(u, nodes.size());
            if (info.active && u.node() >= 0 && u.node() < nodes.size()) {
                byNode.get(u.node()).add(info);
            }
        }
        byNode.forEach(list -> list.sort(Comparator.comparingDouble(Info::cpu).reversed()));
        List<int[]> pairs = new ArrayList<>();
        for (int a = 0; a < nodes.size(); a++) {
            for (int b = a + 1; b < nodes.size(); b++) {
                boolean aHotter = cpu(nodes.get(a)) >= cpu(nodes.get(b));
                pairs.add(aHotter ? new int[] {a, b} : new int[] {b, a});
            }
        }
        pairs.sort(Comparator.comparingDouble((int[] p) -> cpu(nodes.get(p[0])) - cpu(nodes.get(p[1]))).reversed());
        for (boolean move : new boolean[] {true, false}) {
            for (int[] pair : pairs) {
                Optional<Action> action = reduceImbalance(nodes.get(pair[0]), nodes.get(pair[1]), byNode.get(pair[0]), move);
                if (action.isPresent()) {
                    return action;
                }
            }
        }
        for (Partitioned table : partitioned) {
            long pages = table.pieces().stream().mapToLong(Unit::pages).sum();
            Duration window = max(Duration.ofNanos((long) (pages * (parameters.moveNanosPerPage * 2 + parameters.partitionNanosPerPage))),
                    parameters.period);
            if (table.pieces().stream().allMatch(p -> p.rate(window).busyCores() == 0)) {
                NodeLoad coldest = nodes.stream().min(Comparator.comparingDouble(PlacerAlgorithm::cpu)).orElseThrow();
                return Optional.of(new Merge(table, coldest.node(), String.format(Locale.ROOT,
                        "idle for %d ms: its %d pieces merge onto the coldest node %d (%.2f busy cores)",
                        window.toMillis(), table.pieces().size(), coldest.node(), cpu(coldest))));
            }
        }
        return Optional.empty();
    }

    private static double cpu(NodeLoad n) {
        return n.recent().busyCores();
    }

    /** Algorithm 2 for the hotter node {@code s1} and the colder {@code s2}. */
    Optional<Action> reduceImbalance(NodeLoad s1, NodeLoad s2, List<Info> hotUnits, boolean move) {
        double maxCpu = s1.cores();
        double imb = cpu(s1) - cpu(s2);
        if (!(cpu(s1) > parameters.saturation * maxCpu && imb > parameters.imbalance * maxCpu)) {
            return Optional.empty();
        }
        for (Info ruh : hotUnits) {
            if (move && ruh.canMove) {
                double s1Cpu = cpu(s1) - ruh.cpu;
                double s2Cpu = Math.min(cpu(s2) + ruh.cpu, s2.cores());
                double after = Math.abs(s1Cpu - s2Cpu);
                double s2Mem = s2.recent().bytesPerSecond() + ruh.mem;
                if (after < imb && s2Mem <= s2.maxBytesPerSecond()) {
                    return Optional.of(new Move(ruh.unit, s1.node(), s2.node(), figures(s1, s2, ruh, imb, after)));
                }
            } else if (!move && ruh.canPartition) {
                double s2Free = s2.cores() - cpu(s2);
                double half = Math.min(ruh.cpu / 2, s2Free);
                double s1Cpu = cpu(s1) - ruh.cpu + half;
                double s2Cpu = cpu(s2) + half;
                double after = Math.abs(s1Cpu - s2Cpu);
                double s2Mem = s2.recent().bytesPerSecond() + ruh.mem / 2;
                if (after < imb && s2Mem <= s2.maxBytesPerSecond()) {
                    return Optional.of(new Partition(ruh.unit, s1.node(), s2.node(), figures(s1, s2, ruh, imb, after)));
                }
            }
        }
        return Optional.empty();
    }

    private static String figures(NodeLoad s1, NodeLoad s2, Info ruh, double imb, double after) {
        return String.format(Locale.ROOT, "node %d %.2f of %d cores busy, node %d %.2f; the part %.2f cores, %.0f MB/s;"
                        + " imbalance %.2f -> %.2f cores", s1.node(), cpu(s1), s1.cores(), s2.node(), cpu(s2), ruh.cpu,
                ruh.mem / 1e6, imb, after);
    }
}
