package io.numacol.scan;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScanKernelsTest {

    @Test
    void autoPrefersVectorWithEnoughLanes() {
        assertThat(ScanKernels.choose("auto", true, () -> 16).vector()).isTrue();
        assertThat(ScanKernels.choose("auto", true, () -> 4).vector()).isTrue();
        ScanKernels.Choice narrow = ScanKernels.choose("auto", true, () -> 2);
        assertThat(narrow.vector()).isFalse();
        assertThat(narrow.reason()).contains("only 2 lanes");
    }

    @Test
    void autoFallsBackToScalarWithoutTheModuleAndNeverAsksForLanes() {
        ScanKernels.Choice choice = ScanKernels.choose(" AUTO ", false, () -> {
            throw new AssertionError("must not touch the vector classes");
        });
        assertThat(choice.vector()).isFalse();
        assertThat(choice.reason()).contains("jdk.incubator.vector");
    }

    @Test
    void explicitSettingsWin() {
        assertThat(ScanKernels.choose("scalar", true, () -> 16).vector()).isFalse();
        assertThat(ScanKernels.choose("vector", true, () -> 2).vector()).isTrue();
        assertThatThrownBy(() -> ScanKernels.choose("vector", false, () -> 16))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("--add-modules jdk.incubator.vector");
        assertThatThrownBy(() -> ScanKernels.choose("simd", true, () -> 16))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'simd'");
    }

    @Test
    void thisJvmUsesWhatItsCpuAndFlagsCallFor() {
        // Surefire runs with the module and no numacol.scan property.
        ScanKernels.Choice expected = ScanKernels.choose("auto", true, VectorScanKernel::preferredLanes);
        assertThat(ScanKernels.get().name()).isEqualTo(expected.vector() ? "vector" : "scalar");
        assertThat(ScanKernels.scalar().name()).isEqualTo("scalar");
        assertThat(ScanKernels.vector().name()).isEqualTo("vector");
    }
}
