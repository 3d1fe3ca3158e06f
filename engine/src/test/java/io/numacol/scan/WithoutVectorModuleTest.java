package io.numacol.scan;

import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NodeArena;
import io.numacol.memory.NumaMemory;
import io.numacol.storage.IndexVector;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Runs in its own JVM started without --add-modules jdk.incubator.vector (see the engine pom). */
@Tag("no-vector-module")
class WithoutVectorModuleTest {

    @Test
    void autoRunsTheScalarKernel() {
        assertThat(ModuleLayer.boot().findModule("jdk.incubator.vector")).as("this JVM must lack the module").isEmpty();
        assertThat(ScanKernels.get().name()).isEqualTo("scalar");
        assertThatThrownBy(ScanKernels::vector)
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("--add-modules jdk.incubator.vector");
        try (NodeArena arena = NumaMemory.create(Topology.detect()).newArena()) {
            IndexVector iv = IndexVector.pack(new int[] {1, 2, 3, 4, 5}, 5, 3, arena, MemoryPlacement.onNode(0));
            PositionList out = new PositionList();
            ScanKernels.get().scanPositions(iv, 0, 5, VidPredicate.range(2, 4), out);
            assertThat(out.toArray()).containsExactly(1, 2, 3);
        }
    }
}
