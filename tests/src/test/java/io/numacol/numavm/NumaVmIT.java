package io.numacol.numavm;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Proves placement and worker binding on a real multi-node kernel: the emulated 2- and 4-node guest. */
class NumaVmIT {

    @ParameterizedTest(name = "{0} nodes")
    @ValueSource(ints = {2, 4})
    void placementMatchesTheKernel(int nodes) {
        NumaVm.Result result = NumaVm.run(requireScript(), nodes, NumaPlacementCheck.class, String.valueOf(nodes));
        System.out.println(result.output());
        assertThat(result.output()).contains("RESULT: OK");
        assertThat(result.exitCode()).as("exit code of the check in the guest").isZero();
    }

    @ParameterizedTest(name = "{0} nodes")
    @ValueSource(ints = {2, 4})
    void boundWorkersRunOnTheirNodesCpus(int nodes) {
        NumaVm.Result result = NumaVm.run(requireScript(), nodes, SchedulerBindingCheck.class, String.valueOf(nodes));
        System.out.println(result.output());
        assertThat(result.output()).contains("RESULT: OK");
        assertThat(result.exitCode()).as("exit code of the check in the guest").isZero();
    }

    /** The VM script; CI must have it, elsewhere the test is skipped without it. */
    private static Path requireScript() {
        Path script = NumaVm.script().orElse(null);
        if (script == null && System.getenv("CI") != null) {
            throw new AssertionError("CI must run the NUMA guest, but ../shared/numa-vm/run-in-numa-vm.sh is missing");
        }
        Assumptions.assumeTrue(script != null,
                "../shared/numa-vm/run-in-numa-vm.sh is not beside this checkout: no multi-node kernel to check against");
        return script;
    }
}
