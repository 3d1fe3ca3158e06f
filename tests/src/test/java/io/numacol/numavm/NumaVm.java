package io.numacol.numavm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs a main class of this test classpath inside the emulated multi-node NUMA guest of
 * {@code ../shared/numa-vm/} (QEMU under TCG: correct placement, no NUMA timing). Classes are
 * compiled on the host; only the JVM runs in the guest, C1-only, to keep emulation time down.
 */
final class NumaVm {
    /** Set by failsafe to the checkout's root; the script sits in {@code ../shared} beside it. */
    private static final String ROOT_PROPERTY = "numacol.root";

    record Result(int exitCode, String output) {
    }

    private NumaVm() {
    }

    /** The VM script, if this checkout has {@code ../shared/numa-vm} beside it. */
    static Optional<Path> script() {
        Path root = Path.of(System.getProperty(ROOT_PROPERTY, ".")).toAbsolutePath().normalize();
        Path script = root.resolveSibling("shared").resolve("numa-vm").resolve("run-in-numa-vm.sh");
        return Files.isRegularFile(script) ? Optional.of(script) : Optional.empty();
    }

    static Result run(Path script, int nodes, Class<?> main, String... args) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> jvm = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m",
                "-Xshare:auto", "--enable-native-access=ALL-UNNAMED", "--add-modules", "jdk.incubator.vector",
                "-cp", System.getProperty("java.class.path"), main.getName()));
        jvm.addAll(List.of(args));
        // Automatic NUMA balancing would migrate first-touch pages behind numacol's back.
        String command = "echo 0 > /proc/sys/kernel/numa_balancing 2>/dev/null; exec " + String.join(" ", quoted(jvm));
        List<String> argv = List.of("bash", script.toString(), "-n", String.valueOf(nodes),
                "-c", String.valueOf(Math.max(2, nodes)), "-m", "768", "-t", "900", "--", "sh", "-c", command);
        try {
            Path log = Files.createTempFile("numa-vm-" + nodes + "-", ".log");
            Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(20, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException("the NUMA guest did not finish in 20 minutes; log: " + log);
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            Files.deleteIfExists(log);
            return new Result(p.exitValue(), output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static List<String> quoted(List<String> words) {
        return words.stream().map(w -> "'" + w.replace("'", "'\\''") + "'").toList();
    }
}
