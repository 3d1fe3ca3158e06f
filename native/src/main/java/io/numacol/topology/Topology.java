package io.numacol.topology;

import io.numacol.linux.Libc;
import io.numacol.linux.Libnuma;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

/**
 * The NUMA nodes numacol places data and work on. Node ids are dense ({@code 0..nodeCount-1})
 * and numacol's own; {@link NumaNode#osNode()} maps each to the kernel's node.
 *
 * <p>Three kinds: {@link Kind#REAL} (read from the kernel through libnuma),
 * {@link Kind#SINGLE_NODE} (libnuma unavailable: one node, plain memory) and {@link Kind#FAKE}
 * (N nodes spread over the real CPUs, memory on the real nodes) for testing multi-node logic on
 * a one-node machine.
 */
public final class Topology {

    /** numacol keeps node sets in 64-bit masks (the PageSocketMap's interleave pattern). */
    public static final int MAX_NODES = 64;

    private static final System.Logger LOG = System.getLogger(Topology.class.getName());
    private static final AtomicBoolean FALLBACK_LOGGED = new AtomicBoolean();
    private static final int LOCAL_DISTANCE = 10;
    private static final int REMOTE_DISTANCE = 20;

    public enum Kind { REAL, SINGLE_NODE, FAKE }

    private final Kind kind;
    private final List<NumaNode> nodes;
    private final int[] nodeOfCpu;
    private final String description;

    private Topology(Kind kind, List<NumaNode> nodes, String description) {
        this.kind = kind;
        this.nodes = List.copyOf(nodes);
        this.description = description;
        int maxCpu = nodes.stream().flatMapToInt(n -> Arrays.stream(n.cpus())).max().orElse(-1);
        this.nodeOfCpu = new int[maxCpu + 1];
        Arrays.fill(nodeOfCpu, -1);
        for (NumaNode n : nodes) {
            for (int cpu : n.cpus()) {
                if (nodeOfCpu[cpu] < 0) {
                    nodeOfCpu[cpu] = n.id();
                }
            }
        }
    }

    /**
     * A topology from a spec: {@code real} (the default; one node when libnuma is missing) or
     * {@code fake:N} with 1 <= N <= 64.
     */
    public static Topology fromSpec(String spec) {
        String s = spec == null ? "real" : spec.trim().toLowerCase(Locale.ROOT);
        if (s.isEmpty() || s.equals("real")) {
            return detect();
        }
        if (s.startsWith("fake:")) {
            String count = s.substring("fake:".length());
            try {
                return fake(Integer.parseInt(count));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("topology '" + spec + "': node count '" + count + "' is not a number");
            }
        }
        throw new IllegalArgumentException("unknown topology '" + spec + "': use 'real' or 'fake:N' (N nodes, 1.." + MAX_NODES + ")");
    }

    /** The machine's topology through libnuma, or one node (logged once) when libnuma is unavailable. */
    public static Topology detect() {
        if (!Libnuma.isAvailable()) {
            return singleNode(Libnuma.unavailableReason());
        }
        List<Integer> osNodes = new ArrayList<>();
        List<long[]> sizes = new ArrayList<>();
        for (int os = 0; os <= Libnuma.maxNode(); os++) {
            long[] size = Libnuma.nodeSize(os);
            if (size != null) {
                osNodes.add(os);
                sizes.add(size);
            }
        }
        if (osNodes.size() > MAX_NODES) {
            throw new IllegalStateException("this machine has " + osNodes.size() + " NUMA nodes; numacol supports " + MAX_NODES);
        }
        BitSet allowed = Libc.getAffinity();
        int configuredCpus = Libnuma.numConfiguredCpus();
        List<NumaNode> nodes = new ArrayList<>();
        for (int id = 0; id < osNodes.size(); id++) {
            int os = osNodes.get(id);
            int[] cpus = new int[0];
            for (int cpu = 0; cpu < configuredCpus; cpu++) {
                if (allowed.get(cpu) && Libnuma.nodeOfCpu(cpu) == os) {
                    cpus = Arrays.copyOf(cpus, cpus.length + 1);
                    cpus[cpus.length - 1] = cpu;
                }
            }
            int[] distances = new int[osNodes.size()];
            for (int to = 0; to < osNodes.size(); to++) {
                int d = Libnuma.distance(os, osNodes.get(to));
                distances[to] = d > 0 ? d : (to == id ? LOCAL_DISTANCE : REMOTE_DISTANCE);
            }
            nodes.add(new NumaNode(id, os, cpus, sizes.get(id)[0], distances));
        }
        return new Topology(Kind.REAL, nodes, "real (libnuma): " + nodes.size() + " node(s)");
    }

    /**
     * {@code count} fake nodes over the real CPUs (CPU i of the allowed set goes to node
     * {@code i % count}; with more nodes than CPUs, nodes share CPUs) with memory on the real
     * nodes, split evenly. Distances: 10 local, 20 remote.
     */
    public static Topology fake(int count) {
        if (count < 1 || count > MAX_NODES) {
            throw new IllegalArgumentException("a fake topology needs 1.." + MAX_NODES + " nodes, got " + count);
        }
        Topology real = detect();
        int[] cpus = real.nodes.stream().flatMapToInt(n -> Arrays.stream(n.cpus())).sorted().toArray();
        if (cpus.length == 0) {
            cpus = new int[] {0};
        }
        long totalMemory = real.nodes.stream().mapToLong(NumaNode::memoryBytes).sum();
        List<NumaNode> nodes = new ArrayList<>();
        for (int id = 0; id < count; id++) {
            List<Integer> mine = new ArrayList<>();
            for (int i = id; i < cpus.length; i += count) {
                mine.add(cpus[i]);
            }
            if (mine.isEmpty()) {
                mine.add(cpus[id % cpus.length]);
            }
            int[] distances = new int[count];
            Arrays.fill(distances, REMOTE_DISTANCE);
            distances[id] = LOCAL_DISTANCE;
            int osNode = real.nodes.get(id % real.nodes.size()).osNode();
            nodes.add(new NumaNode(id, osNode, mine.stream().mapToInt(Integer::intValue).toArray(),
                    totalMemory / count, distances));
        }
        return new Topology(Kind.FAKE, nodes, "fake: " + count + " node(s) over " + real.description);
    }

    private static Topology singleNode(String reason) {
        if (FALLBACK_LOGGED.compareAndSet(false, true)) {
            LOG.log(System.Logger.Level.WARNING, "numacol runs as one NUMA node with plain memory: " + reason);
        }
        int cpuCount = Runtime.getRuntime().availableProcessors();
        int[] cpus;
        try {
            cpus = Libc.getAffinity().stream().toArray();
        } catch (RuntimeException e) {
            cpus = IntStream.range(0, cpuCount).toArray();
        }
        NumaNode node = new NumaNode(0, 0, cpus, meminfo("MemTotal:"), new int[] {LOCAL_DISTANCE});
        return new Topology(Kind.SINGLE_NODE, List.of(node), "single node (" + reason + ")");
    }

    /** A /proc/meminfo figure in bytes (the JVM's max heap if unreadable). */
    private static long meminfo(String key) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith(key)) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // fall through to the JVM's view
        }
        return Runtime.getRuntime().maxMemory();
    }

    public Kind kind() {
        return kind;
    }

    public boolean isFake() {
        return kind == Kind.FAKE;
    }

    public int nodeCount() {
        return nodes.size();
    }

    public List<NumaNode> nodes() {
        return nodes;
    }

    /** Every node's numacol id, ascending: 0 to {@link #nodeCount()} - 1. */
    public int[] nodeIds() {
        return IntStream.range(0, nodes.size()).toArray();
    }

    public NumaNode node(int id) {
        checkNode(id);
        return nodes.get(id);
    }

    /** Throws IllegalArgumentException naming the bad id and the valid range. */
    public void checkNode(int id) {
        if (id < 0 || id >= nodes.size()) {
            throw new IllegalArgumentException("NUMA node " + id + " does not exist: this topology has nodes 0.."
                    + (nodes.size() - 1) + " (" + description + ")");
        }
    }

    public int distance(int from, int to) {
        return node(from).distanceTo(to);
    }

    /** numacol's node of a CPU (the first one when fake nodes share CPUs), or -1. */
    public int nodeOfCpu(int cpu) {
        return cpu >= 0 && cpu < nodeOfCpu.length ? nodeOfCpu[cpu] : -1;
    }

    /**
     * The numacol node for pages the kernel reports on {@code osNode}, or -1. On a fake
     * topology several nodes share a kernel node, so this answers only for real topologies;
     * fake placement is tracked by numacol's own page bookkeeping.
     */
    public int nodeOfOsNode(int osNode) {
        for (NumaNode n : nodes) {
            if (n.osNode() == osNode) {
                return n.id();
            }
        }
        return -1;
    }

    /** Free memory of a node now (for a fake node: its share of the real nodes' free memory). */
    public long freeMemory(int id) {
        NumaNode n = node(id);
        if (kind == Kind.SINGLE_NODE || !Libnuma.isAvailable()) {
            return meminfo("MemAvailable:");
        }
        long[] size = Libnuma.nodeSize(n.osNode());
        if (size == null) {
            return 0;
        }
        long sharing = nodes.stream().filter(o -> o.osNode() == n.osNode()).count();
        return size[1] / sharing;
    }

    public String description() {
        return description;
    }

    @Override
    public String toString() {
        return description;
    }
}
