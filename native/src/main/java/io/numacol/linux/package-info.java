/**
 * FFM downcalls into Linux libraries, one class per library: {@link io.numacol.linux.Libnuma}
 * (node memory, page moves, node of a CPU) and {@link io.numacol.linux.Libc} (thread affinity,
 * current CPU, mmap, madvise). Handles are {@code static final} and called with
 * {@code invokeExact}; nothing above this package touches a native symbol.
 */
package io.numacol.linux;
