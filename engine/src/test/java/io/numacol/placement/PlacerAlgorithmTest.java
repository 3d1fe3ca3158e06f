package io.numacol.placement;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Algorithms 1-3 on figures the test sets, and on a simulated machine that applies their actions. */
class PlacerAlgorithmTest {
    private static final Duration PERIOD = Duration.ofSeconds(1);
    private static final PlacerAlgorithm PLACER = new PlacerAlgorithm(PlacerAlgorithm.Parameters.defaults(PERIOD, 1_000, 2_000));
    private static final double GB = 1e9;

    /** A unit with a steady load, unless {@code pastCpu} says what it was before the last period. */
    private static final class Fixed implements PlacerAlgorithm.Unit {
        final String table;
        int node;
        double cpu;
        final double pastCpu;
        int partitions = 1;

        Fixed(String table, int node, double cpu) {
            this(table, node, cpu, cpu);
        }

        Fixed(String table, int node, double cpu, double pastCpu) {
            this.table = table;
            this.node = node;
            this.cpu = cpu;
            this.pastCpu = pastCpu;
        }

        @Override
        public String table() {
            return table;
        }

        @Override
        public int node() {
            return node;
        }

        @Override
        public long pages() {
            return 1_000_000; // a move takes 1 s at the test's speed, so the past window is 2 s
        }

        @Override
        public int partitions() {
            return partitions;
        }

        @Override
        public Utilization.Rate rate(Duration window) {
            double c = window.compareTo(PERIOD) <= 0 ? cpu : pastCpu;
            return new Utilization.Rate(c, c * GB, window);
        }
    }

    /** Nodes of {@code cores} each, busy with their units' load up to their cores. */
    private static List<PlacerAlgorithm.NodeLoad> nodes(int count, int cores, double maxMem, List<Fixed> units) {
        List<PlacerAlgorithm.NodeLoad> nodes = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            int node = n;
            double cpu = Math.min(cores, units.stream().filter(u -> u.node == node).mapToDouble(u -> u.cpu).sum());
            nodes.add(new PlacerAlgorithm.NodeLoad(n, cores, maxMem, new Utilization.Rate(cpu, cpu * GB, PERIOD)));
        }
        return nodes;
    }

    @Test
    void theHottestSteadyPartOfASaturatedNodeMovesToTheColdNode() {
        List<Fixed> units = List.of(new Fixed("a", 0, 0.9), new Fixed("b", 0, 0.5), new Fixed("c", 0, 0.4));
        Optional<PlacerAlgorithm.Action> action = PLACER.decide(nodes(2, 1, 10 * GB, units), units, List.of());
        // moving a (0.9) leaves 1.0 - 0.9 = 0.1 against 0.9: imbalance 0.8 < 1.0
        assertThat(action).get().isInstanceOfSatisfying(PlacerAlgorithm.Move.class, m -> {
            assertThat(m.unit()).isSameAs(units.get(0));
            assertThat(m.from()).isZero();
            assertThat(m.to()).isEqualTo(1);
            assertThat(m.why()).contains("imbalance 1.00 -> 0.80");
        });
    }

    @Test
    void aNodeUnderSaturationOrASmallImbalanceIsLeftAlone() {
        List<Fixed> half = List.of(new Fixed("a", 0, 0.6));
        assertThat(PLACER.decide(nodes(2, 1, 10 * GB, half), half, List.of())).as("0.6 < 70% of a core").isEmpty();
        List<Fixed> even = List.of(new Fixed("a", 0, 0.8), new Fixed("b", 1, 0.5));
        assertThat(PLACER.decide(nodes(2, 1, 10 * GB, even), even, List.of())).as("imbalance 0.3 < 40% of a core").isEmpty();
    }

    @Test
    void aPartWhoseLoadJustChangedIsNotEligible() {
        List<Fixed> burst = List.of(new Fixed("a", 0, 0.9, 0.2), new Fixed("b", 0, 0.4));
        Optional<PlacerAlgorithm.Action> action = PLACER.decide(nodes(2, 1, 10 * GB, burst), burst, List.of());
        assertThat(action).get().isInstanceOfSatisfying(PlacerAlgorithm.Move.class, m -> assertThat(m.unit()).isSameAs(burst.get(1)));
    }

    @Test
    void oneHotPartThatAMoveWouldOnlyShiftIsPartitioned() {
        List<Fixed> one = List.of(new Fixed("a", 0, 1.0));
        Optional<PlacerAlgorithm.Action> action = PLACER.decide(nodes(2, 1, 10 * GB, one), one, List.of());
        assertThat(action).get().isInstanceOfSatisfying(PlacerAlgorithm.Partition.class, p -> {
            assertThat(p.from()).isZero();
            assertThat(p.to()).isEqualTo(1);
        });
        one.getFirst().partitions = 2; // 2 * 2 pieces > 2 nodes
        assertThat(PLACER.decide(nodes(2, 1, 10 * GB, one), one, List.of())).isEmpty();
    }

    @Test
    void theColdNodesMemoryThroughputBoundsAMove() {
        List<Fixed> units = List.of(new Fixed("a", 0, 0.9), new Fixed("b", 0, 0.5));
        assertThat(PLACER.decide(nodes(2, 1, 0.5 * GB, units), units, List.of())).as("0.9 GB/s would not fit 0.5")
                .get().isInstanceOfSatisfying(PlacerAlgorithm.Move.class, m -> assertThat(m.unit()).isSameAs(units.get(1)));
        assertThat(PLACER.decide(nodes(2, 1, 0.1 * GB, units), units, List.of())).isEmpty();
    }

    @Test
    void idlePartitionedTablesMergeOntoTheColdestNode() {
        Fixed p0 = new Fixed("t", 0, 0);
        Fixed p1 = new Fixed("t", 1, 0);
        List<Fixed> busy = List.of(new Fixed("u", 1, 0.5), new Fixed("v", 0, 0.2));
        List<Fixed> all = List.of(p0, p1, busy.get(0), busy.get(1));
        Optional<PlacerAlgorithm.Action> action = PLACER.decide(nodes(3, 1, 10 * GB, all), all,
                List.of(new PlacerAlgorithm.Partitioned("t", List.of(p0, p1))));
        assertThat(action).get().isInstanceOfSatisfying(PlacerAlgorithm.Merge.class, m -> assertThat(m.to()).isEqualTo(2));
        Fixed used = new Fixed("t", 1, 0.1);
        assertThat(PLACER.decide(nodes(3, 1, 10 * GB, all), all, List.of(new PlacerAlgorithm.Partitioned("t", List.of(p0, used)))))
                .as("a piece still in use").isEmpty();
    }

    /** The largest CPU imbalance between two nodes. */
    private static double imbalance(List<PlacerAlgorithm.NodeLoad> nodes) {
        double max = nodes.stream().mapToDouble(n -> n.recent().busyCores()).max().orElse(0);
        double min = nodes.stream().mapToDouble(n -> n.recent().busyCores()).min().orElse(0);
        return max - min;
    }

    /**
     * Hot tables all on one node of four: the simulated machine applies each action (a move
     * changes a part's node, a partition halves it onto two), and the imbalance never grows
     * (§6.3.3), ends under the threshold or where no action can lower it, and stays put.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void onASimulatedMachineTheImbalanceNeverGrowsAndSettles(int seed) {
        Random random = new Random(seed);
        int nodeCount = 4;
        int cores = 2;
        List<Fixed> units = new ArrayList<>();
        int tables = 2 + random.nextInt(6);
        for (int t = 0; t < tables; t++) {
            units.add(new Fixed("t" + t, random.nextInt(2), 0.2 + random.nextDouble() * 1.5));
        }
        double before = imbalance(nodes(nodeCount, cores, 100 * GB, units));
        int actions = 0;
        while (true) {
            List<PlacerAlgorithm.NodeLoad> nodes = nodes(nodeCount, cores, 100 * GB, units);
            Optional<PlacerAlgorithm.Action> action = PLACER.decide(nodes, units, List.of());
            if (action.isEmpty()) {
                break;
            }
            switch (action.get()) {
                case PlacerAlgorithm.Move m -> ((Fixed) m.unit()).node = m.to();
                case PlacerAlgorithm.Partition p -> {
                    Fixed u = (Fixed) p.unit();
                    u.cpu /= 2;
                    u.partitions *= 2;
                    Fixed half = new Fixed(u.table, p.to(), u.cpu);
                    half.partitions = u.partitions;
                    units.add(half);
                }
                case PlacerAlgorithm.Merge m -> throw new AssertionError("nothing is idle: " + m);
            }
            double after = imbalance(nodes(nodeCount, cores, 100 * GB, units));
            assertThat(after).as("imbalance after %s", action.get()).isLessThanOrEqualTo(before + 1e-9);
            before = after;
            assertThat(++actions).as("settles").isLessThan(100);
        }
        List<PlacerAlgorithm.NodeLoad> settled = nodes(nodeCount, cores, 100 * GB, units);
        assertThat(PLACER.decide(settled, units, List.of())).as("no oscillation once balanced").isEmpty();
        double hottest = settled.stream().mapToDouble(n -> n.recent().busyCores()).max().orElseThrow();
        assertThat(hottest <= 0.7 * cores || imbalance(settled) <= 0.4 * cores
                || units.stream().allMatch(u -> 2 * u.partitions > nodeCount))
                .as("settled: no node saturated, or balanced, or nothing left to partition: %s", settled).isTrue();
    }
}
