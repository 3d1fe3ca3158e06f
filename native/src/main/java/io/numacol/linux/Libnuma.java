package io.numacol.linux;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Downcalls into libnuma (numa(3)). Node ids here are the kernel's.
 *
 * <p>The library name comes from the system property {@code numacol.libnuma} (default
 * {@code libnuma.so.1}). When the library, one of its symbols, or kernel NUMA support is
 * missing, {@link #isAvailable()} is false, {@link #unavailableReason()} says why, and callers
 * fall back to one node with plain memory. No method here may be called then.
 */
// Restricted FFM calls are this class's purpose; the JVM permits them with --enable-native-access.
@SuppressWarnings("restricted")
public final class Libnuma {

    public static final String LIBRARY_PROPERTY = "numacol.libnuma";

    /** {@code MPOL_MF_MOVE} from numaif.h: move pages owned only by this process. */
    public static final int MPOL_MF_MOVE = 1 << 1;

    private static final String LIBRARY = System.getProperty(LIBRARY_PROPERTY, "libnuma.so.1");
    private static final Optional<SymbolLookup> LOOKUP = lookup();

    private static final MethodHandle NUMA_AVAILABLE = handle("numa_available", FunctionDescriptor.of(JAVA_INT));
    private static final MethodHandle NUMA_MAX_NODE = handle("numa_max_node", FunctionDescriptor.of(JAVA_INT));
    private static final MethodHandle NUMA_NUM_CONFIGURED_CPUS =
            handle("numa_num_configured_cpus", FunctionDescriptor.of(JAVA_INT));
    private static final MethodHandle NUMA_NODE_OF_CPU =
            handle("numa_node_of_cpu", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle NUMA_NODE_SIZE64 =
            handle("numa_node_size64", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS));
    private static final MethodHandle NUMA_DISTANCE =
            handle("numa_distance", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle NUMA_PAGESIZE = handle("numa_pagesize", FunctionDescriptor.of(JAVA_INT));
    /** Every symbol numacol calls: all present or libnuma is not used (their handles are made on first use). */
    private static final List<String> SYMBOLS = List.of("numa_available", "numa_max_node", "numa_num_configured_cpus",
            "numa_node_of_cpu", "numa_node_size64", "numa_distance", "numa_pagesize", "numa_alloc_onnode",
            "numa_alloc_interleaved_subset", "numa_free", "numa_move_pages", "numa_run_on_node", "numa_allocate_nodemask",
            "numa_bitmask_setbit", "numa_bitmask_free");

    private static final String UNAVAILABLE_REASON = checkAvailable();

    private Libnuma() {
    }

    /*
     * The handles of calls that a database makes after it opens, or only on several nodes, each group made
     * on its first call: a downcall handle spins classes of its own (all fifteen took Libnuma's initializer
     * from about 260 to 690 ms in a fresh JVM), and a database on one node never makes the interleaving
     * and binding ones.
     */

    /** The handles of node-bound memory, made by its first allocation. */
    private static final class Allocation {
        static final MethodHandle NUMA_ALLOC_ONNODE =
                handle("numa_alloc_onnode", FunctionDescriptor.of(ADDRESS, JAVA_LONG, JAVA_INT));
        static final MethodHandle NUMA_FREE = handle("numa_free", FunctionDescriptor.ofVoid(ADDRESS, JAVA_LONG));
    }

    /** The handles of interleaved memory, which only a database on several nodes allocates. */
    private static final class Interleaving {
        static final MethodHandle NUMA_ALLOC_INTERLEAVED_SUBSET =
                handle("numa_alloc_interleaved_subset", FunctionDescriptor.of(ADDRESS, JAVA_LONG, ADDRESS));
        static final MethodHandle NUMA_ALLOCATE_NODEMASK = handle("numa_allocate_nodemask", FunctionDescriptor.of(ADDRESS));
        static final MethodHandle NUMA_BITMASK_SETBIT =
                handle("numa_bitmask_setbit", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT));
        static final MethodHandle NUMA_BITMASK_FREE = handle("numa_bitmask_free", FunctionDescriptor.ofVoid(ADDRESS));
    }

    /** move_pages(2) with the errno it sets, made when pages are first located or moved. */
    private static final class PageMoves {
        static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
        static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
        static final MethodHandle NUMA_MOVE_PAGES = handle("numa_move_pages",
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS, JAVA_INT),
                Linker.Option.captureCallState("errno"));
    }

    /** numa_run_on_node, made by its first call. */
    private static final class Binding {
        static final MethodHandle NUMA_RUN_ON_NODE = handle("numa_run_on_node", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    }

    /** True when libnuma loaded with every symbol numacol uses and the kernel supports NUMA. */
    public static boolean isAvailable() {
        return UNAVAILABLE_REASON == null;
    }

    /** Why libnuma cannot be used, or null when it can. */
    public static String unavailableReason() {
        return UNAVAILABLE_REASON;
    }

    public static int maxNode() {
        try {
            return (int) NUMA_MAX_NODE.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int numConfiguredCpus() {
        try {
            return (int) NUMA_NUM_CONFIGURED_CPUS.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The node of a CPU, or -1 when the CPU does not exist or is offline. */
    public static int nodeOfCpu(int cpu) {
        try {
            return (int) NUMA_NODE_OF_CPU.invokeExact(cpu);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {total, free} bytes of a node's memory, or null when the node does not exist. */
    public static long[] nodeSize(int node) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment free = arena.allocate(JAVA_LONG);
            long total = (long) NUMA_NODE_SIZE64.invokeExact(node, free);
            return total < 0 ? null : new long[] {total, free.get(JAVA_LONG, 0)};
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The SLIT distance between two nodes (10 = local), or 0 when the kernel gives none. */
    public static int distance(int from, int to) {
        try {
            return (int) NUMA_DISTANCE.invokeExact(from, to);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int pageSize() {
        try {
            return (int) NUMA_PAGESIZE.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Page-aligned, zero-filled memory bound to a node; the result's address is 0 on failure. */
    public static MemorySegment allocOnNode(long bytes, int node) {
        try {
            return (MemorySegment) Allocation.NUMA_ALLOC_ONNODE.invokeExact(bytes, node);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Memory interleaved page by page over {@code nodes}; the result's address is 0 on failure. */
    public static MemorySegment allocInterleaved(long bytes, int[] nodes) {
        MemorySegment mask = MemorySegment.NULL;
        try {
            mask = (MemorySegment) Interleaving.NUMA_ALLOCATE_NODEMASK.invokeExact();
            for (int node : nodes) {
                MemorySegment _ = (MemorySegment) Interleaving.NUMA_BITMASK_SETBIT.invokeExact(mask, node);
            }
            return (MemorySegment) Interleaving.NUMA_ALLOC_INTERLEAVED_SUBSET.invokeExact(bytes, mask);
        } catch (Throwable t) {
            throw rethrow(t);
        } finally {
            freeMask(mask);
        }
    }

    private static void freeMask(MemorySegment mask) {
        if (mask.address() != 0) {
            try {
                Interleaving.NUMA_BITMASK_FREE.invokeExact(mask);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }
    }

    public static void free(long address, long bytes) {
        try {
            Allocation.NUMA_FREE.invokeExact(MemorySegment.ofAddress(address), bytes);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * move_pages(2) for this process. {@code pages} holds page addresses; with
     * {@code nodes == NULL} nothing moves and {@code status} receives each page's node or a
     * negative errno (-ENOENT: not yet faulted in). Returns 0 or more (pages not moved), or
     * the negated errno of a failed call.
     */
    public static int movePages(long count, MemorySegment pages, MemorySegment nodes, MemorySegment status, int flags) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(PageMoves.CALL_STATE);
            int rc = (int) PageMoves.NUMA_MOVE_PAGES.invokeExact(state, 0, count, pages, nodes, status, flags);
            return rc < 0 ? -(int) PageMoves.ERRNO.get(state, 0L) : rc;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Restricts the calling thread to the CPUs of a node (-1: all nodes). Returns 0 or -1. */
    public static int runOnNode(int node) {
        try {
            return (int) Binding.NUMA_RUN_ON_NODE.invokeExact(node);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static Optional<SymbolLookup> lookup() {
        try {
            return Optional.of(SymbolLookup.libraryLookup(LIBRARY, Arena.global()));
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    private static MethodHandle handle(String name, FunctionDescriptor descriptor, Linker.Option... options) {
        return LOOKUP.flatMap(l -> l.find(name))
                .map(symbol -> Linker.nativeLinker().downcallHandle(symbol, descriptor, options))
                .orElse(null);
    }

    private static String checkAvailable() {
        if (LOOKUP.isEmpty()) {
            return "cannot load " + LIBRARY + " (install libnuma1, or set -D" + LIBRARY_PROPERTY + ")";
        }
        for (String symbol : SYMBOLS) {
            if (LOOKUP.get().find(symbol).isEmpty()) {
                return LIBRARY + " lacks a symbol numacol needs (libnuma >= 2.0.8 required)";
            }
        }
        try {
            if ((int) NUMA_AVAILABLE.invokeExact() < 0) {
                return "numa_available() < 0: the kernel has no NUMA support";
            }
        } catch (Throwable t) {
            return "numa_available() failed: " + t;
        }
        return null;
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
