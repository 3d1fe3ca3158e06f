package io.numacol.linux;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.BitSet;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** Downcalls into the C library: CPU affinity of the calling thread, current CPU, madvise. */
// Restricted FFM calls are this class's purpose; the JVM permits them with --enable-native-access.
@SuppressWarnings("restricted")
public final class Libc {

    /** madvise(2) advice: back the range with transparent huge pages where possible. */
    public static final int MADV_HUGEPAGE = 14;
    public static final int MADV_NOHUGEPAGE = 15;

    /** glibc's cpu_set_t holds 1024 CPUs; larger machines would need a dynamic set. */
    private static final int CPU_SET_BYTES = 128;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO =
            CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private static final MethodHandle SCHED_GETCPU = LINKER.downcallHandle(
            LINKER.defaultLookup().find("sched_getcpu").orElseThrow(), FunctionDescriptor.of(JAVA_INT));
    private static final MethodHandle SCHED_SETAFFINITY = LINKER.downcallHandle(
            LINKER.defaultLookup().find("sched_setaffinity").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS), Linker.Option.captureCallState("errno"));
    private static final MethodHandle SCHED_GETAFFINITY = LINKER.downcallHandle(
            LINKER.defaultLookup().find("sched_getaffinity").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS), Linker.Option.captureCallState("errno"));
    private static final MethodHandle MADVISE = LINKER.downcallHandle(
            LINKER.defaultLookup().find("madvise").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT), Linker.Option.captureCallState("errno"));

    private static final MethodHandle MMAP = LINKER.downcallHandle(
            LINKER.defaultLookup().find("mmap").orElseThrow(),
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle MUNMAP = LINKER.downcallHandle(
            LINKER.defaultLookup().find("munmap").orElseThrow(), FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));

    private static final MethodHandle SYSCONF = LINKER.downcallHandle(
            LINKER.defaultLookup().find("sysconf").orElseThrow(), FunctionDescriptor.of(JAVA_LONG, JAVA_INT));
    private static final int SC_PAGESIZE = 30;

    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;

    private Libc() {
    }

    /** The kernel's base page size in bytes. */
    public static long pageSize() {
        try {
            return (long) SYSCONF.invokeExact(SC_PAGESIZE);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Page-aligned, zero-filled anonymous memory; 0 when the kernel refuses. */
    public static long mmapAnonymous(long bytes) {
        try {
            MemorySegment m = (MemorySegment) MMAP.invokeExact(MemorySegment.NULL, bytes, PROT_READ_WRITE,
                    MAP_PRIVATE_ANONYMOUS, -1, 0L);
            return m.address() == -1L ? 0 : m.address();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    public static void munmap(long address, long bytes) {
        try {
            int rc = (int) MUNMAP.invokeExact(MemorySegment.ofAddress(address), bytes);
            if (rc != 0) {
                throw new IllegalStateException("munmap(" + Long.toHexString(address) + ", " + bytes + ") failed");
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The CPU the calling thread runs on right now. */
    public static int schedGetCpu() {
        try {
            return (int) SCHED_GETCPU.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Restricts the calling thread to {@code cpus}; throws with the errno when the kernel refuses. */
    public static void setAffinity(BitSet cpus) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment set = arena.allocate(CPU_SET_BYTES, 8);
            for (int cpu = cpus.nextSetBit(0); cpu >= 0; cpu = cpus.nextSetBit(cpu + 1)) {
                if (cpu >= CPU_SET_BYTES * 8) {
                    throw new IllegalArgumentException("cpu " + cpu + " is beyond the " + CPU_SET_BYTES * 8 + " CPUs numacol supports");
                }
                int word = cpu >>> 6;
                long bits = set.getAtIndex(JAVA_LONG, word);
                set.setAtIndex(JAVA_LONG, word, bits | (1L << (cpu & 63)));
            }
            MemorySegment state = arena.allocate(CALL_STATE);
            int rc = (int) SCHED_SETAFFINITY.invokeExact(state, 0, (long) CPU_SET_BYTES, set);
            if (rc != 0) {
                throw new IllegalStateException("sched_setaffinity(" + cpus + ") failed, errno " + (int) ERRNO.get(state, 0L));
            }
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The CPUs the calling thread may run on. */
    public static BitSet getAffinity() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment set = arena.allocate(CPU_SET_BYTES, 8);
            MemorySegment state = arena.allocate(CALL_STATE);
            int rc = (int) SCHED_GETAFFINITY.invokeExact(state, 0, (long) CPU_SET_BYTES, set);
            if (rc != 0) {
                throw new IllegalStateException("sched_getaffinity failed, errno " + (int) ERRNO.get(state, 0L));
            }
            return BitSet.valueOf(set.toArray(JAVA_LONG));
        } catch (RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** madvise(2); returns 0, or the errno (advice is only a hint, so callers may ignore it). */
    public static int madvise(MemorySegment range, int advice) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(CALL_STATE);
            int rc = (int) MADVISE.invokeExact(state, range, range.byteSize(), advice);
            return rc == 0 ? 0 : (int) ERRNO.get(state, 0L);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
