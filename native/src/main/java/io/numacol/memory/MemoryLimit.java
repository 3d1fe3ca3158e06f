package io.numacol.memory;

import io.numacol.topology.NumaNode;
import io.numacol.topology.Topology;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bound on what numacol holds: in all, and per node its share by the node's memory. Table
 * data reserves here as {@link NumaMemory} maps it (on the nodes its pages go to), a statement's
 * intermediates (rows between operators, hash tables) as they grow (in all only: they live on the
 * JVM's heap). A reservation that would pass a bound fails with a {@link MemoryLimitException}
 * naming what asked for how many bytes, and reserves nothing.
 */
public final class MemoryLimit {
    /** The default share of the machine's memory, as DuckDB's default memory_limit. */
    public static final double DEFAULT_SHARE = 0.8;

    private static final Pattern SIZE = Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*([a-zA-Z%]*)\\s*");

    private final long total;
    private final long[] perNode;
    private final AtomicLong used = new AtomicLong();
    private final AtomicLongArray usedPerNode;

    private MemoryLimit(long total, long[] perNode) {
        this.total = total;
        this.perNode = perNode;
        this.usedPerNode = new AtomicLongArray(perNode.length);
    }

    /** {@code total} bytes in all, shared among the nodes by their memory. */
    public static MemoryLimit of(long total, Topology topology) {
        if (total <= 0) {
            throw new IllegalArgumentException("memoryLimit must be positive, got " + total + " bytes");
        }
        long machine = machineBytes(topology);
        long[] perNode = new long[topology.nodeCount()];
        for (NumaNode n : topology.nodes()) {
            double share = machine > 0 ? (double) n.memoryBytes() / machine : 1.0 / perNode.length;
            perNode[n.id()] = (long) Math.ceil(total * share);
        }
        return new MemoryLimit(total, perNode);
    }

    /**
     * The limit a {@code memoryLimit} property asks for: bytes ({@code 2000000000}), a size with a
     * unit ({@code 4GB}, {@code 512MiB}: KB/MB/GB/TB count in 1000s, KiB/MiB/GiB/TiB in 1024s) or a
     * share of the machine's memory ({@code 50%}); null or blank: {@link #DEFAULT_SHARE} of it.
     */
    public static MemoryLimit parse(String spec, Topology topology) {
        long machine = machineBytes(topology);
        if (spec == null || spec.isBlank()) {
            return of(Math.max(1, (long) (machine * DEFAULT_SHARE)), topology);
        }
        Matcher m = SIZE.matcher(spec);
        if (!m.matches()) {
            throw new IllegalArgumentException("memoryLimit '" + spec + "' is not a size: write bytes, 4GB, 512MiB or 50%");
        }
        double number = Double.parseDouble(m.group(1));
        String unit = m.group(2).toUpperCase(Locale.ROOT);
        double bytes = switch (unit) {
            case "", "B" -> number;
            case "KB" -> number * 1e3;
            case "MB" -> number * 1e6;
            case "GB" -> number * 1e9;
            case "TB" -> number * 1e12;
            case "KIB" -> number * 1024;
            case "MIB" -> number * 1024 * 1024;
            case "GIB" -> number * 1024 * 1024 * 1024;
            case "TIB" -> number * 1024 * 1024 * 1024 * 1024;
            case "%" -> {
                if (number <= 0 || number > 100) {
                    throw new IllegalArgumentException("memoryLimit '" + spec + "': a share is more than 0% and at most 100%");
                }
                yield machine * number / 100;
            }
            default -> throw new IllegalArgumentException("memoryLimit '" + spec + "': unknown unit '" + m.group(2)
                    + "' (use B, KB, MB, GB, TB, KiB, MiB, GiB, TiB or %)");
        };
        if (bytes < 1 || bytes >= Long.MAX_VALUE) {
            throw new IllegalArgumentException("memoryLimit '" + spec + "' must be at least 1 byte");
        }
        return of((long) bytes, topology);
    }

    private static long machineBytes(Topology topology) {
        return topology.nodes().stream().mapToLong(NumaNode::memoryBytes).sum();
    }

    /**
     * Reserves {@code bytes} for {@code what}, on {@code node} (-1: in all only).
     *
     * @throws MemoryLimitException when the total or the node's share would be passed
     */
    public void reserve(int node, long bytes, String what) {
        if (bytes <= 0) {
            return;
        }
        long before;
        do {
            before = used.get();
            if (before + bytes > total) {
                throw new MemoryLimitException(what + " asked for " + bytes + " bytes, but numacol's memoryLimit of "
                        + total + " bytes has " + Math.max(0, total - before) + " left (" + before + " in use)");
            }
        } while (!used.compareAndSet(before, before + bytes));
        if (node < 0) {
            return;
        }
        do {
            before = usedPerNode.get(node);
            if (before + bytes > perNode[node]) {
                used.addAndGet(-bytes);
                throw new MemoryLimitException(what + " asked for " + bytes + " bytes on node " + node
                        + ", but that node's share of numacol's memoryLimit, " + perNode[node] + " bytes, has "
                        + Math.max(0, perNode[node] - before) + " left (" + before + " in use)");
            }
        } while (!usedPerNode.compareAndSet(node, before, before + bytes));
    }

    /** Gives back what {@link #reserve} took. */
    public void release(int node, long bytes) {
        if (bytes <= 0) {
            return;
        }
        used.addAndGet(-bytes);
        if (node >= 0) {
            usedPerNode.addAndGet(node, -bytes);
        }
    }

    /** Moves a reservation between nodes (pages moved): no bound is checked, the bytes are already held. */
    void move(int from, int to, long bytes) {
        usedPerNode.addAndGet(from, -bytes);
        usedPerNode.addAndGet(to, bytes);
    }

    public long totalBytes() {
        return total;
    }

    public long nodeBytes(int node) {
        return perNode[node];
    }

    public long usedBytes() {
        return used.get();
    }

    public long usedBytes(int node) {
        return usedPerNode.get(node);
    }
}
