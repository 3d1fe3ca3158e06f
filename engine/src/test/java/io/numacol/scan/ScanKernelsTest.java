package io.numacol.scan;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ScanKernelsTest {

    @Test
    void autoPrefersVectorWithEnoughLanes() {
        assertThat(ScanKernels.choose("auto", true, () -> 16, false).vector()).isTrue();
        assertThat(ScanKernels.choose("auto", true, () -> 4, false).vector()).isTrue();
        ScanKernels.Choice narrow = ScanKernels.choose("auto", true, () -> 2, false);
        assertThat(narrow.vector()).isFalse();
        assertThat(narrow.reason()).contains("only 2 lanes");
    }

    @Test
    void autoFallsBackToScalarWithoutTheModuleAndNeverAsksForLanes() {
        ScanKernels.Choice choice = ScanKernels.choose(" AUTO ", false, () -> {
            throw new AssertionError("must not touch the vector classes");
        }, true);
        assertThat(choice.vector()).isFalse();
        assertThat(choice.reason()).contains("jdk.incubator.vector");
    }

    /** Lucene's rule: on amd64, 128-bit vectors do not pay, and auto takes the scalar kernel. */
    @Test
    void autoOnAmd64NeedsTwoHundredFiftySixBits() {
        ScanKernels.Choice sse = ScanKernels.choose("auto", true, () -> 4, true);
        assertThat(sse.vector()).isFalse();
        assertThat(sse.reason()).contains("4 lanes").contains("256 bits");
        assertThat(ScanKernels.choose("auto", true, () -> 8, true).vector()).isTrue();
        assertThat(ScanKernels.choose("vector", true, () -> 4, true).vector()).as("asked for").isTrue();
    }

    @Test
    void vectorWidthsAreTheOnesThereAre() {
        assertThat(VectorScanKernel.species("128").length()).isEqualTo(4);
        assertThat(VectorScanKernel.species("256").length()).isEqualTo(8);
        assertThat(VectorScanKernel.species(" 512").length()).isEqualTo(16);
        assertThat(VectorScanKernel.species("auto").length()).isBetween(4, 16);
        assertThatThrownBy(() -> VectorScanKernel.species("64")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("numacol.scan.vectorBits").hasMessageContaining("'64'");
    }

    /** The runs of the kernel tests at 128 and 256 bits (engine/pom.xml) do run at those widths. */
    @Test
    void thisJvmsVectorKernelHasTheWidthAsked() {
        String bits = System.getProperty(ScanKernels.VECTOR_BITS_PROPERTY, "auto");
        int lanes = VectorScanKernel.preferredLanes();
        System.out.println("vector scan kernel: " + lanes + " int lanes (" + ScanKernels.VECTOR_BITS_PROPERTY + "=" + bits + ")");
        if (!bits.equals("auto")) {
            assertThat(lanes * Integer.SIZE).isEqualTo(Integer.parseInt(bits));
        }
    }

    @Test
    void explicitSettingsWin() {
        assertThat(ScanKernels.choose("scalar", true, () -> 16, false).vector()).isFalse();
        assertThat(ScanKernels.choose("vector", true, () -> 2, false).vector()).isTrue();
        assertThatThrownBy(() -> ScanKernels.choose("vector", false, () -> 16, false))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("--add-modules jdk.incubator.vector");
        assertThatThrownBy(() -> ScanKernels.choose("simd", true, () -> 16, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'simd'");
    }

    @Test
    void thisJvmUsesWhatItsCpuAndFlagsCallFor() {
        // Surefire runs with the module and no numacol.scan property (the kernel tests' runs at 128 and
        // 256 bits set numacol.scan.vectorBits).
        ScanKernels.Choice expected = ScanKernels.choose("auto", true, VectorScanKernel::preferredLanes,
                "amd64".equals(System.getProperty("os.arch")));
        assertThat(ScanKernels.get().name()).isEqualTo(expected.vector() ? "vector" : "scalar");
        assertThat(ScanKernels.scalar().name()).isEqualTo("scalar");
        assertThat(ScanKernels.vector().name()).isEqualTo("vector");
    }
}
