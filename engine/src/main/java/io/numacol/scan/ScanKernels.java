package io.numacol.scan;

import java.util.Locale;
import java.util.function.IntSupplier;

/**
 * Picks the scan kernel once per JVM, at class initialization, from the system property
 * {@value #PROPERTY}: {@code auto} (the default: the vector kernel when the
 * {@code jdk.incubator.vector} module is present and its int species has at least 4 lanes, on
 * amd64 at least 8, else the scalar one), {@code vector} or {@code scalar}. The vector kernel's
 * width is {@value #VECTOR_BITS_PROPERTY} (auto, 128, 256 or 512). It logs its choice and why.
 *
 * <p>The vector kernel is reached only through a holder class, so a JVM started without
 * {@code --add-modules jdk.incubator.vector} never loads it and runs the scalar kernel. Any other
 * value of the property, or {@code vector} without the module, fails this class's initialization
 * with an exception that names the problem.
 */
public final class ScanKernels {
    public static final String PROPERTY = "numacol.scan";
    /** The vector kernel's width in bits: auto (the CPU's preferred), 128, 256 or 512. */
    public static final String VECTOR_BITS_PROPERTY = "numacol.scan.vectorBits";
    /** Below this many int lanes (256 bits) {@code auto} takes the scalar kernel on amd64, Lucene's rule: 128-bit SSE does not pay there. */
    private static final int MIN_AMD64_LANES = 8;
    static final String VECTOR_MODULE = "jdk.incubator.vector";
    private static final int MIN_VECTOR_LANES = 4;

    private static final ScanKernel CHOSEN;

    static {
        Choice choice = choose(System.getProperty(PROPERTY, "auto"), vectorModulePresent(), ScanKernels::preferredLanes,
                "amd64".equals(System.getProperty("os.arch")));
        CHOSEN = choice.vector() ? vector() : scalar();
        // DEBUG: a plain start prints nothing (the main job prints the kernel in its first line)
        System.getLogger(ScanKernels.class.getName())
                .log(System.Logger.Level.DEBUG, "numacol scan kernel: " + CHOSEN.name() + " (" + choice.reason() + ")");
    }

    private ScanKernels() {
    }

    /** The kernel this JVM uses. */
    public static ScanKernel get() {
        return CHOSEN;
    }

    public static ScanKernel scalar() {
        return ScalarScanKernel.INSTANCE;
    }

    /**
     * The SIMD kernel, whatever the property says (for tests and benchmarks).
     *
     * @throws UnsupportedOperationException when the JVM lacks the jdk.incubator.vector module
     */
    public static ScanKernel vector() {
        if (!vectorModulePresent()) {
            throw new UnsupportedOperationException("the vector scan kernel needs the " + VECTOR_MODULE
                    + " module: start the JVM with --add-modules " + VECTOR_MODULE);
        }
        return VectorHolder.KERNEL;
    }

    record Choice(boolean vector, String reason) {
    }

    /** The decision, apart from the JVM it runs in so that tests can walk every branch. */
    static Choice choose(String setting, boolean vectorModulePresent, IntSupplier preferredLanes, boolean amd64) {
        String s = setting.trim().toLowerCase(Locale.ROOT);
        return switch (s) {
            case "scalar" -> new Choice(false, PROPERTY + "=scalar");
            case "vector" -> {
                if (!vectorModulePresent) {
                    throw new IllegalStateException(PROPERTY + "=vector, but the JVM lacks the " + VECTOR_MODULE
                            + " module: start it with --add-modules " + VECTOR_MODULE);
                }
                yield new Choice(true, PROPERTY + "=vector, " + preferredLanes.getAsInt() + " int lanes");
            }
            case "auto" -> {
                if (!vectorModulePresent) {
                    yield new Choice(false, PROPERTY + "=auto and the JVM lacks the " + VECTOR_MODULE
                            + " module (start it with --add-modules " + VECTOR_MODULE + " for SIMD)");
                }
                int lanes = preferredLanes.getAsInt();
                if (amd64 && lanes < MIN_AMD64_LANES) {
                    yield new Choice(false, PROPERTY + "=auto and the int species has " + lanes + " lanes: on amd64 SIMD pays from "
                            + MIN_AMD64_LANES + " (256 bits)");
                }
                yield lanes >= MIN_VECTOR_LANES
                        ? new Choice(true, PROPERTY + "=auto and the preferred int species has " + lanes + " lanes")
                        : new Choice(false, PROPERTY + "=auto and the preferred int species has only " + lanes
                                + " lanes (SIMD pays from " + MIN_VECTOR_LANES + ")");
            }
            default -> throw new IllegalArgumentException(PROPERTY + " must be auto, vector or scalar, got '" + setting + "'");
        };
    }

    static boolean vectorModulePresent() {
        return ModuleLayer.boot().findModule(VECTOR_MODULE).isPresent();
    }

    private static int preferredLanes() {
        return VectorHolder.lanes();
    }

    /** Loaded on first use only, so that nothing touches jdk.incubator.vector unless it is there. */
    private static final class VectorHolder {
        static final ScanKernel KERNEL = VectorScanKernel.INSTANCE;

        static int lanes() {
            return VectorScanKernel.preferredLanes();
        }
    }
}
