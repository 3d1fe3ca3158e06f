package io.numacol.scheduler;

import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.EnumSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StealPolicyTest {
    private static final HardAffinityAdvisor SCANS_HARD = c -> c == TaskClass.SCAN;

    @Test
    void affinitiesAreSharedConstantsWithTheirNodeAndFlag() {
        assertThat(Affinity.none().isNone()).isTrue();
        assertThat(Affinity.none().node()).isEqualTo(-1);
        assertThat(Affinity.node(3)).isSameAs(Affinity.node(3));
        assertThat(Affinity.node(3).isHard()).isFalse();
        assertThat(Affinity.hard(3).isHard()).isTrue();
        assertThat(Affinity.node(3).asHard()).isSameAs(Affinity.hard(3));
        assertThat(Affinity.none().asHard()).isSameAs(Affinity.none());
        assertThat(Affinity.hard(2)).hasToString("hard(2)");
    }

    @Test
    void affinityRejectsNodesOutsideTheSupportedRange() {
        assertThatThrownBy(() -> Affinity.node(-1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThatThrownBy(() -> Affinity.hard(Topology.MAX_NODES)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(String.valueOf(Topology.MAX_NODES));
    }

    @Test
    void osDropsEveryAffinity() {
        for (Affinity a : new Affinity[] {Affinity.none(), Affinity.node(1), Affinity.hard(1)}) {
            assertThat(StealPolicy.OS.apply(a, TaskClass.SCAN, SCANS_HARD)).isSameAs(Affinity.none());
        }
    }

    @Test
    void targetKeepsWhatWasAskedFor() {
        assertThat(StealPolicy.TARGET.apply(Affinity.node(1), TaskClass.SCAN, SCANS_HARD)).isSameAs(Affinity.node(1));
        assertThat(StealPolicy.TARGET.apply(Affinity.hard(1), TaskClass.SCAN, SCANS_HARD)).isSameAs(Affinity.hard(1));
        assertThat(StealPolicy.TARGET.apply(Affinity.none(), TaskClass.SCAN, SCANS_HARD)).isSameAs(Affinity.none());
    }

    @Test
    void boundSetsTheHardFlag() {
        assertThat(StealPolicy.BOUND.apply(Affinity.node(2), TaskClass.OTHER, HardAffinityAdvisor.NEVER)).isSameAs(Affinity.hard(2));
        assertThat(StealPolicy.BOUND.apply(Affinity.none(), TaskClass.OTHER, HardAffinityAdvisor.NEVER)).isSameAs(Affinity.none());
    }

    @Test
    void adaptiveAsksTheAdvisorPerTaskClass() {
        for (TaskClass c : TaskClass.values()) {
            Affinity expected = c == TaskClass.SCAN ? Affinity.hard(0) : Affinity.node(0);
            assertThat(StealPolicy.ADAPTIVE.apply(Affinity.node(0), c, SCANS_HARD)).as("%s", c).isSameAs(expected);
            assertThat(StealPolicy.ADAPTIVE.apply(Affinity.node(0), c, HardAffinityAdvisor.NEVER)).isSameAs(Affinity.node(0));
            assertThat(StealPolicy.ADAPTIVE.apply(Affinity.hard(0), c, HardAffinityAdvisor.NEVER)).isSameAs(Affinity.hard(0));
        }
        assertThat(EnumSet.allOf(TaskClass.class)).contains(TaskClass.MATERIALIZE, TaskClass.AGGREGATE,
                TaskClass.JOIN_BUILD, TaskClass.JOIN_PROBE);
    }

    @Test
    void configRejectsBadValuesNamingThem() {
        SchedulerConfig d = SchedulerConfig.defaults();
        assertThatThrownBy(() -> d.withGroupsPerNode(-2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("groupsPerNode").hasMessageContaining("-2");
        assertThatThrownBy(() -> d.withGroupsPerNode(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
        assertThatThrownBy(() -> d.withMaxWorkersPerGroup(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("maxWorkersPerGroup");
        assertThatThrownBy(() -> d.withWatchdogPeriod(Duration.ofMillis(-5))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("watchdogPeriod").hasMessageContaining("-0.005");
        assertThatThrownBy(() -> d.withStealPolicy(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("stealPolicy");
        assertThat(d.withHardAffinityAdvisor(null).hardAffinityAdvisor()).isSameAs(HardAffinityAdvisor.NEVER);
        assertThat(d.groupsPerNode()).isEqualTo(1);
        assertThat(d.watchdogPeriod()).hasMillis(20);
        assertThat(d.hintPeriod()).hasMillis(50);
    }
}
