package io.numacol.topology;

import io.numacol.linux.Libnuma;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.BitSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TopologyTest {

    @Test
    void realTopologyMatchesTheKernel() {
        assertThat(Libnuma.isAvailable()).as("libnuma on this machine: %s", Libnuma.unavailableReason()).isTrue();
        Topology t = Topology.detect();
        assertThat(t.kind()).isEqualTo(Topology.Kind.REAL);
        assertThat(t.nodeCount()).isEqualTo(Libnuma.maxNode() + 1);
        int cpus = t.nodes().stream().mapToInt(n -> n.cpus().length).sum();
        assertThat(cpus).isEqualTo(Runtime.getRuntime().availableProcessors());
        for (NumaNode n : t.nodes()) {
            assertThat(n.memoryBytes()).isPositive();
            assertThat(n.distanceTo(n.id())).isEqualTo(10);
            for (int cpu : n.cpus()) {
                assertThat(t.nodeOfCpu(cpu)).isEqualTo(n.id());
            }
            assertThat(t.freeMemory(n.id())).isPositive().isLessThanOrEqualTo(n.memoryBytes());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 7, 64})
    void fakeTopologySpreadsRealCpusOverItsNodes(int count) {
        Topology real = Topology.detect();
        Topology fake = Topology.fromSpec("fake:" + count);
        assertThat(fake.isFake()).isTrue();
        assertThat(fake.nodeCount()).isEqualTo(count);
        BitSet realCpus = new BitSet();
        real.nodes().forEach(n -> realCpus.or(n.cpuSet()));
        BitSet covered = new BitSet();
        for (NumaNode n : fake.nodes()) {
            assertThat(n.cpus()).as("every fake node has a CPU to bind to").isNotEmpty();
            covered.or(n.cpuSet());
            assertThat(real.nodeOfOsNode(n.osNode())).as("memory on a real node").isNotNegative();
            int[] d = n.distances();
            assertThat(d[n.id()]).isEqualTo(10);
            assertThat(Arrays.stream(d).filter(x -> x == 20).count()).isEqualTo(count - 1);
        }
        assertThat(covered).isEqualTo(realCpus);
    }

    @Test
    void badSpecsAndNodeIdsSayWhatIsWrong() {
        assertThatThrownBy(() -> Topology.fromSpec("fake:0")).hasMessageContaining("1..64").hasMessageContaining("0");
        assertThatThrownBy(() -> Topology.fromSpec("fake:65")).hasMessageContaining("65");
        assertThatThrownBy(() -> Topology.fromSpec("fake:x")).hasMessageContaining("'x' is not a number");
        assertThatThrownBy(() -> Topology.fromSpec("numa")).hasMessageContaining("unknown topology 'numa'");
        Topology t = Topology.fake(4);
        assertThatThrownBy(() -> t.node(4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NUMA node 4 does not exist").hasMessageContaining("0..3");
        assertThatThrownBy(() -> t.checkNode(-1)).hasMessageContaining("node -1");
    }
}
