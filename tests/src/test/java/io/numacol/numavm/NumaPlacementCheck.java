package io.numacol.numavm;

import io.numacol.memory.Component;
import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NodeArena;
import io.numacol.memory.NumaMemory;
import io.numacol.placement.PageSocketMap;
import io.numacol.topology.NumaNode;
import io.numacol.topology.Topology;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Run inside a multi-node guest (see {@link NumaVm}): the real topology must match sysfs, and
 * column components placed on each node, interleaved and moved must sit where numacol asked,
 * with numacol's PageSocketMap agreeing with the kernel (move_pages and /proc/self/numa_maps)
 * for at least 99% of pages. Exit code 0 when every check passes.
 */
public final class NumaPlacementCheck {
    private static final double REQUIRED = 0.99;
    private static final List<String> FAILURES = new ArrayList<>();

    public static void main(String[] args) throws IOException {
        int expectedNodes = Integer.parseInt(args[0]);
        Topology topology = Topology.detect();
        System.out.println("topology: " + topology);
        topology.nodes().forEach(n -> System.out.println("  " + n));
        check(topology.kind() == Topology.Kind.REAL, "topology is real, not " + topology.kind());
        check(topology.nodeCount() == expectedNodes, "expected " + expectedNodes + " nodes, got " + topology.nodeCount());
        for (NumaNode n : topology.nodes()) {
            Path sys = Path.of("/sys/devices/system/node/node" + n.osNode());
            int[] cpus = parseCpuList(Files.readString(sys.resolve("cpulist")).trim());
            check(Arrays.equals(cpus, n.cpus()), "node " + n.id() + " cpus " + Arrays.toString(n.cpus())
                    + " vs sysfs " + Arrays.toString(cpus));
            int[] distances = Arrays.stream(Files.readString(sys.resolve("distance")).trim().split("\\s+"))
                    .mapToInt(Integer::parseInt).toArray();
            check(Arrays.equals(distances, n.distances()), "node " + n.id() + " distances "
                    + Arrays.toString(n.distances()) + " vs sysfs " + Arrays.toString(distances));
        }

        NumaMemory memory = NumaMemory.create(topology);
        int nodes = topology.nodeCount();
        long bytes = 1024 * memory.pageSize();
        try (NodeArena arena = memory.newArena()) {
            Map<String, MemorySegment> segments = new java.util.LinkedHashMap<>();
            Map<String, int[]> expected = new HashMap<>();
            for (int node = 0; node < nodes; node++) {
                String label = "index vector on node " + node;
                segments.put(label, arena.allocate(bytes, MemoryPlacement.onNode(node), Component.INDEX_VECTOR));
                expected.put(label, new int[] {node});
            }
            int[] all = IntStream.range(0, nodes).toArray();
            segments.put("dictionary interleaved", arena.allocate(bytes, MemoryPlacement.interleaved(all), Component.DICTIONARY));
            expected.put("dictionary interleaved", all);
            String moved = "index vector moved 0 -> " + (nodes - 1);
            segments.put(moved, arena.allocate(bytes, MemoryPlacement.onNode(0), Component.INDEX_VECTOR));
            expected.put(moved, new int[] {nodes - 1});
            segments.values().forEach(s -> s.fill((byte) 1));

            PageSocketMap psm = new PageSocketMap(memory);
            segments.values().forEach(psm::add);
            psm.move(segments.get(moved).address(), bytes, nodes - 1);

            Map<Long, long[]> numaMaps = numaMaps(nodes);
            for (var e : segments.entrySet()) {
                verify(e.getKey(), e.getValue(), expected.get(e.getKey()), psm, memory, numaMaps);
            }
        }
        check(memory.accounting().totalBytes() == 0, "accounting back to 0 after close");
        System.out.println(FAILURES.isEmpty() ? "RESULT: OK" : "RESULT: FAILED " + FAILURES);
        System.exit(FAILURES.isEmpty() ? 0 : 1);
    }

    private static void verify(String label, MemorySegment s, int[] targets, PageSocketMap psm, NumaMemory memory,
                               Map<Long, long[]> numaMaps) {
        int pages = (int) (s.byteSize() / memory.pageSize());
        int[] kernel = new int[pages];
        memory.kernelPages().locate(s.address(), pages, kernel);
        long[] perNode = new long[memory.topology().nodeCount()];
        int agree = 0;
        for (int i = 0; i < pages; i++) {
            if (psm.lookup(s.address() + i * memory.pageSize()) == kernel[i]) {
                agree++;
            }
            if (kernel[i] >= 0) {
                perNode[kernel[i]]++;
            }
        }
        long onTarget;
        if (targets.length == 1) {
            onTarget = perNode[targets[0]];
        } else {
            // interleaved: each node should hold its share; count what is within each share
            onTarget = Arrays.stream(perNode).map(c -> Math.min(c, pages / targets.length)).sum();
        }
        long[] maps = numaMaps.get(s.address());
        long mapsAgree = maps == null ? -1 : IntStream.range(0, perNode.length)
                .mapToLong(n -> Math.min(maps[n], psm.subset(s.address(), s.byteSize()).pages(n))).sum();
        List<PageSocketMap.Range> ranges = psm.subset(s.address(), s.byteSize()).ranges();
        System.out.printf("  %-32s pages per node %s; on target %.2f%%; PSM = move_pages %.2f%%; PSM = numa_maps %s; PSM ranges %d%s%n",
                label, Arrays.toString(perNode), 100.0 * onTarget / pages, 100.0 * agree / pages,
                mapsAgree < 0 ? "(no VMA of its own)" : String.format("%.2f%%", 100.0 * mapsAgree / pages),
                ranges.size(), ranges.stream().anyMatch(PageSocketMap.Range::isInterleaved) ? " (interleaved)" : "");
        check(onTarget >= REQUIRED * pages, label + ": only " + onTarget + "/" + pages + " pages where numacol asked");
        check(agree >= REQUIRED * pages, label + ": PSM agrees with move_pages for only " + agree + "/" + pages);
        check(mapsAgree < 0 || mapsAgree >= REQUIRED * pages, label + ": PSM agrees with numa_maps for only " + mapsAgree);
        if (targets.length > 1) {
            check(ranges.stream().anyMatch(r -> r.isInterleaved() && Long.bitCount(r.interleaveMask()) == targets.length),
                    label + ": PSM did not detect interleaving over " + targets.length + " nodes: " + ranges);
        }
    }

    /** Pages per kernel node of each VMA in /proc/self/numa_maps, by start address. */
    private static Map<Long, long[]> numaMaps(int nodes) throws IOException {
        Map<Long, long[]> out = new HashMap<>();
        for (String line : Files.readAllLines(Path.of("/proc/self/numa_maps"))) {
            String[] words = line.split(" ");
            long[] counts = new long[nodes];
            for (String w : words) {
                if (w.matches("N\\d+=\\d+")) {
                    int node = Integer.parseInt(w.substring(1, w.indexOf('=')));
                    if (node < nodes) {
                        counts[node] = Long.parseLong(w.substring(w.indexOf('=') + 1));
                    }
                }
            }
            out.put(Long.parseUnsignedLong(words[0], 16), counts);
        }
        return out;
    }

    private static int[] parseCpuList(String list) {
        if (list.isEmpty()) {
            return new int[0];
        }
        return Arrays.stream(list.split(",")).flatMapToInt(part -> {
            String[] bounds = part.split("-");
            int lo = Integer.parseInt(bounds[0]);
            int hi = bounds.length > 1 ? Integer.parseInt(bounds[1]) : lo;
            return IntStream.rangeClosed(lo, hi);
        }).toArray();
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            FAILURES.add(what);
            System.out.println("  FAIL " + what);
        }
    }
}
