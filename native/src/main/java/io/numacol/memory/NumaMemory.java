package io.numacol.memory;

import io.numacol.linux.Libc;
import io.numacol.linux.Libnuma;
import io.numacol.topology.NumaNode;
import io.numacol.topology.Topology;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentSkipListMap;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * numacol's off-heap memory for one topology: allocates page-aligned memory on a node or
 * interleaved over nodes (libnuma; plain anonymous mappings when libnuma is unavailable),
 * frees it when its {@link NodeArena} closes, accounts it per node and component, and moves
 * pages between nodes.
 *
 * <p>For every live allocation it keeps the node it asked each page to go to. On a fake
 * topology that record is where pages "are"; on a real one the kernel is asked
 * ({@link #kernelPages()}), and the record serves accounting.
 */
// Restricted FFM calls are this class's purpose; the JVM permits them with --enable-native-access.
@SuppressWarnings("restricted")
public final class NumaMemory {
    /** Pages per move_pages call: bounds the native scratch arrays. */
    private static final int MOVE_PAGES_BATCH = 1 << 16;
    private static final int ENOENT = 2;

    private final Topology topology;
    private final MemoryLimit limit;
    private final boolean libnuma;
    private final long pageSize;
    private final long capacity;
    private final MemoryAccounting accounting;
    private final ConcurrentSkipListMap<Long, Allocation> live = new ConcurrentSkipListMap<>();

    private NumaMemory(Topology topology, MemoryLimit limit) {
        this.topology = topology;
        this.limit = limit;
        this.libnuma = topology.kind() != Topology.Kind.SINGLE_NODE && Libnuma.isAvailable();
        this.pageSize = Libc.pageSize();
        this.capacity = topology.nodes().stream().mapToLong(NumaNode::memoryBytes).sum();
        this.accounting = new MemoryAccounting(topology.nodeCount());
    }

    /** With the default limit, {@link MemoryLimit#DEFAULT_SHARE} of the topology's memory. */
    public static NumaMemory create(Topology topology) {
        return create(topology, MemoryLimit.parse(null, Objects.requireNonNull(topology, "topology")));
    }

    public static NumaMemory create(Topology topology, MemoryLimit limit) {
        return new NumaMemory(Objects.requireNonNull(topology, "topology"), Objects.requireNonNull(limit, "limit"));
    }

    /** What this memory, and the statements over it, may hold in all and per node. */
    public MemoryLimit limit() {
        return limit;
    }

    public NodeArena newArena() {
        return new NodeArena(this);
    }

    public Topology topology() {
        return topology;
    }

    public MemoryAccounting accounting() {
        return accounting;
    }

    public long pageSize() {
        return pageSize;
    }

    /** True when memory is placed through libnuma (otherwise plain mappings on one node). */
    public boolean usesLibnuma() {
        return libnuma;
    }

    public int liveAllocations() {
        return live.size();
    }

    /** The page locator a PageSocketMap should trust: the kernel's on a real topology, else numacol's record. */
    public PageLocator pages() {
        return topology.kind() == Topology.Kind.REAL ? kernelPages() : bookkeptPages();
    }

    /** Asks the kernel (move_pages without targets); kernel nodes are mapped to numacol ids. */
    public PageLocator kernelPages() {
        if (!libnuma) {
            return this::locateBookkept;
        }
        return this::locateInKernel;
    }

    /** Where numacol asked each page of its live allocations to go. */
    public PageLocator bookkeptPages() {
        return this::locateBookkept;
    }

    MemorySegment allocate(Arena arena, long bytes, MemoryPlacement placement, Component component) {
        Objects.requireNonNull(placement, "placement");
        Objects.requireNonNull(component, "component");
        if (bytes < 0) {
            throw new IllegalArgumentException("cannot allocate " + bytes + " bytes: the size must not be negative");
        }
        if (bytes > capacity) {
            throw new IllegalArgumentException("cannot allocate " + bytes + " bytes: all NUMA nodes together hold "
                    + capacity + " bytes");
        }
        int[] nodes = nodesOf(placement);
        if (bytes == 0) {
            return arena.allocate(0);
        }
        long mapped = (bytes + pageSize - 1) / pageSize * pageSize;
        long address = map(mapped, nodes);
        if (address == 0) {
            throw new NumaMemoryException("the kernel refused " + mapped + " bytes " + describe(placement)
                    + " (out of memory there?)");
        }
        Allocation allocation = null;
        try {
            byte[] pageNodes = new byte[Math.toIntExact(mapped / pageSize)];
            for (int i = 0; i < pageNodes.length; i++) {
                pageNodes[i] = (byte) targetOf(nodes, address + i * pageSize);
            }
            reserve(pageNodes, component);
            allocation = new Allocation(address, mapped, component, pageNodes);
            live.put(address, allocation);
            allocation.account(accounting, pageSize, +1);
            Allocation registered = allocation;
            return MemorySegment.ofAddress(address).reinterpret(bytes, arena, ignored -> release(registered));
        } catch (Throwable t) {
            // Whatever failed (an OutOfMemoryError for the page table, a closed arena), the mapping goes back.
            if (allocation != null) {
                release(allocation);
            } else {
                unmap(address, mapped); // reserve() failing reserved nothing
            }
            throw t;
        }
    }

    /** Reserves an allocation's pages on their nodes, all of them or (throwing) none. */
    private void reserve(byte[] pageNodes, Component component) {
        long[] perNode = bytesPerNode(pageNodes);
        for (int node = 0; node < perNode.length; node++) {
            try {
                limit.reserve(node, perNode[node], component.describe());
            } catch (MemoryLimitException e) {
                for (int back = 0; back < node; back++) {
                    limit.release(back, perNode[back]);
                }
                throw e;
            }
        }
    }

    private long[] bytesPerNode(byte[] pageNodes) {
        long[] perNode = new long[topology.nodeCount()];
        for (byte node : pageNodes) {
            perNode[node] += pageSize;
        }
        return perNode;
    }

    /**
     * Moves the pages of {@code [address, address + bytes)} (widened to whole pages, all inside
     * live numacol allocations) as {@code target} says. Returns how many pages the kernel could
     * not move (pages never touched have nowhere to move from and are not counted).
     */
    public long movePages(long address, long bytes, MemoryPlacement target) {
        int[] nodes = nodesOf(target);
        long first = address / pageSize * pageSize;
        long end = (address + bytes + pageSize - 1) / pageSize * pageSize;
        List<Allocation> allocations = new ArrayList<>();
        for (long page = first; page < end; ) {
            Allocation a = allocationOf(page);
            if (a == null) {
                throw new IllegalArgumentException("address 0x" + Long.toHexString(page) + " is not numacol memory");
            }
            allocations.add(a);
            page = Math.min(end, a.address + a.bytes);
        }
        long failed = 0;
        for (Allocation a : allocations) {
            long from = Math.max(first, a.address);
            long stop = Math.min(end, a.address + a.bytes);
            // Holding the allocation's monitor holds its mapping: release() frees under it too, so
            // the kernel never moves pages that were freed (and perhaps mapped again) meanwhile.
            synchronized (a) {
                if (live.get(a.address) != a) {
                    throw new IllegalStateException("numacol memory at 0x" + Long.toHexString(from)
                            + " was freed while its pages were being moved");
                }
                if (libnuma) {
                    failed += moveInKernel(from, stop, target, nodes);
                }
                a.account(accounting, pageSize, -1);
                for (long p = from; p < stop; p += pageSize) {
                    int i = (int) ((p - a.address) / pageSize);
                    byte to = (byte) targetOf(nodes, p);
                    limit.move(a.pageNodes[i], to, pageSize);
                    a.pageNodes[i] = to;
                }
                a.account(accounting, pageSize, +1);
            }
        }
        return failed;
    }

    private long map(long mapped, int[] nodes) {
        if (!libnuma) {
            return Libc.mmapAnonymous(mapped);
        }
        int[] osNodes = Arrays.stream(nodes).map(n -> topology.node(n).osNode()).sorted().distinct().toArray();
        if (osNodes.length == 1) {
            return Libnuma.allocOnNode(mapped, osNodes[0]).address();
        }
        MemorySegment m = Libnuma.allocInterleaved(mapped, osNodes);
        if (m.address() != 0) {
            // A transparent huge page would put 512 consecutive pages on one node: interleave page by page.
            Libc.madvise(m.reinterpret(mapped), Libc.MADV_NOHUGEPAGE);
        }
        return m.address();
    }

    private void release(Allocation allocation) {
        synchronized (allocation) { // not while movePages moves its pages
            if (live.remove(allocation.address, allocation)) {
                unmap(allocation.address, allocation.bytes);
                allocation.account(accounting, pageSize, -1);
                long[] perNode = bytesPerNode(allocation.pageNodes);
                for (int node = 0; node < perNode.length; node++) {
                    limit.release(node, perNode[node]);
                }
            }
        }
    }

    private void unmap(long address, long bytes) {
        if (libnuma) {
            Libnuma.free(address, bytes);
        } else {
            Libc.munmap(address, bytes);
        }
    }

    private int[] nodesOf(MemoryPlacement placement) {
        int[] nodes = switch (placement) {
            case MemoryPlacement.OnNode on -> new int[] {on.node()};
            case MemoryPlacement.Interleaved il -> il.nodes();
        };
        for (int node : nodes) {
            topology.checkNode(node);
        }
        return nodes;
    }

    /** Interleaving follows the kernel's rule for anonymous memory: page number modulo the node count. */
    private int targetOf(int[] nodes, long pageAddress) {
        return nodes.length == 1 ? nodes[0] : nodes[(int) Long.remainderUnsigned(pageAddress / pageSize, nodes.length)];
    }

    private Allocation allocationOf(long address) {
        Map.Entry<Long, Allocation> e = live.floorEntry(address);
        return e != null && address < e.getValue().address + e.getValue().bytes ? e.getValue() : null;
    }

    private void locateBookkept(long address, int pageCount, int[] out) {
        for (int i = 0; i < pageCount; i++) {
            long page = address + i * pageSize;
            Allocation a = allocationOf(page);
            out[i] = a == null ? -1 : a.pageNodes[(int) ((page - a.address) / pageSize)];
        }
    }

    private void locateInKernel(long address, int pageCount, int[] out) {
        for (int done = 0; done < pageCount; done += MOVE_PAGES_BATCH) {
            int n = Math.min(MOVE_PAGES_BATCH, pageCount - done);
            try (Arena scratch = Arena.ofConfined()) {
                MemorySegment pages = scratch.allocate(ADDRESS, n);
                MemorySegment status = scratch.allocate(JAVA_INT, n);
                for (int i = 0; i < n; i++) {
                    pages.setAtIndex(ADDRESS, i, MemorySegment.ofAddress(address + (done + i) * pageSize));
                }
                int rc = Libnuma.movePages(n, pages, MemorySegment.NULL, status, 0);
                if (rc < 0) {
                    throw new NumaMemoryException("move_pages could not report where " + n + " pages from 0x"
                            + Long.toHexString(address + done * pageSize) + " are: " + errno(-rc));
                }
                for (int i = 0; i < n; i++) {
                    int s = status.getAtIndex(JAVA_INT, i);
                    out[done + i] = s < 0 ? -1 : topology.nodeOfOsNode(s);
                }
            }
        }
    }

    private long moveInKernel(long first, long end, MemoryPlacement target, int[] nodes) {
        long failed = 0;
        long total = (end - first) / pageSize;
        for (long done = 0; done < total; done += MOVE_PAGES_BATCH) {
            int n = (int) Math.min(MOVE_PAGES_BATCH, total - done);
            try (Arena scratch = Arena.ofConfined()) {
                MemorySegment pages = scratch.allocate(ADDRESS, n);
                MemorySegment targets = scratch.allocate(JAVA_INT, n);
                MemorySegment status = scratch.allocate(JAVA_INT, n);
                for (int i = 0; i < n; i++) {
                    long page = first + (done + i) * pageSize;
                    pages.setAtIndex(ADDRESS, i, MemorySegment.ofAddress(page));
                    targets.setAtIndex(JAVA_INT, i, topology.node(targetOf(nodes, page)).osNode());
                }
                int rc = Libnuma.movePages(n, pages, targets, status, Libnuma.MPOL_MF_MOVE);
                if (rc < 0) {
                    throw new NumaMemoryException("move_pages refused to move " + n + " pages from 0x"
                            + Long.toHexString(first + done * pageSize) + " " + describe(target) + ": " + errno(-rc));
                }
                for (int i = 0; i < n; i++) {
                    int s = status.getAtIndex(JAVA_INT, i);
                    if (s < 0 && s != -ENOENT) {
                        failed++;
                    }
                }
            }
        }
        return failed;
    }

    /** An errno as move_pages(2) documents it, by number and name. */
    static String errno(int errno) {
        String name = switch (errno) {
            case 1 -> "EPERM";
            case 2 -> "ENOENT";
            case 3 -> "ESRCH";
            case 7 -> "E2BIG";
            case 12 -> "ENOMEM";
            case 13 -> "EACCES";
            case 14 -> "EFAULT";
            case 19 -> "ENODEV";
            case 22 -> "EINVAL";
            default -> null;
        };
        return "errno " + errno + (name == null ? "" : " (" + name + ")");
    }

    private static String describe(MemoryPlacement placement) {
        return switch (placement) {
            case MemoryPlacement.OnNode on -> "on node " + on.node();
            case MemoryPlacement.Interleaved il -> "interleaved over nodes " + Arrays.toString(il.nodes());
        };
    }

    /** One mapping: its pages' intended nodes, guarded by the allocation's monitor for moves. */
    private static final class Allocation {
        final long address;
        final long bytes;
        final Component component;
        final byte[] pageNodes;

        Allocation(long address, long bytes, Component component, byte[] pageNodes) {
            this.address = address;
            this.bytes = bytes;
            this.component = component;
            this.pageNodes = pageNodes;
        }

        void account(MemoryAccounting accounting, long pageSize, int sign) {
            long[] perNode = new long[Topology.MAX_NODES];
            for (byte node : pageNodes) {
                perNode[node] += pageSize;
            }
            for (int node = 0; node < perNode.length; node++) {
                if (perNode[node] != 0) {
                    accounting.add(node, component, sign * perNode[node]);
                }
            }
        }
    }
}
