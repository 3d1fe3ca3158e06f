package io.numacol.placement;

import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NumaMemory;
import io.numacol.memory.PageLocator;
import io.numacol.storage.TablePart;
import io.numacol.topology.Topology;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The PageSocketMap (PSM) of the thesis (§5.2.1): on which node the pages of some address
 * ranges live, as sorted ranges of pages (first page, page count, node, interleave mask) plus
 * a count of pages per node. It is built by asking a {@link PageLocator} (the kernel on a real
 * topology) and is read-optimised: readers see an immutable snapshot, writers replace it.
 *
 * <p>A run of pages on one node becomes one plain range. A run that cycles through a set of
 * nodes in ascending order (as the kernel interleaves) for at least two full cycles becomes one
 * interleaved range: {@code node} is the node of its first page and the mask names the cycle's
 * nodes. Pages the kernel has not placed yet (never touched) get node -1 and count for no node.
 */
public final class PageSocketMap {

    /** One range of pages; {@code interleaveMask == 0} for a plain range. */
    public record Range(long firstPage, int pageCount, int node, long interleaveMask) {
        public boolean isInterleaved() {
            return interleaveMask != 0;
        }

        /** The node of the page {@code index} pages into this range. */
        public int nodeOfPage(long index) {
            if (interleaveMask == 0) {
                return node;
            }
            int count = Long.bitCount(interleaveMask);
            int start = Long.bitCount(interleaveMask & ((1L << node) - 1));
            return nthSetBit(interleaveMask, (int) ((start + index) % count));
        }
    }

    private record State(Range[] ranges, long[] firstPages, long[] pagesPerNode) {
    }

    private final PageLocator locator;
    private final NumaMemory memory;
    private final long pageSize;
    private volatile State state = new State(new Range[0], new long[0], new long[Topology.MAX_NODES]);

    /** A PSM that asks {@code memory}'s locator (the kernel on a real topology) and moves through it. */
    public PageSocketMap(NumaMemory memory) {
        this(memory.pages(), memory.pageSize(), memory);
    }

    /** A PSM over any locator (synthetic page maps in tests); it cannot move pages. */
    public PageSocketMap(PageLocator locator, long pageSize) {
        this(locator, pageSize, null);
    }

    private PageSocketMap(PageLocator locator, long pageSize, NumaMemory memory) {
        if (pageSize <= 0 || Long.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("page size must be a power of two, got " + pageSize);
        }
        this.locator = Objects.requireNonNull(locator, "locator");
        this.pageSize = pageSize;
        this.memory = memory;
    }

    public void add(MemorySegment segment) {
        add(segment.address(), segment.byteSize());
    }

    /** Tracks the pages of {@code [address, address + bytes)}; pages already tracked are skipped. */
    public synchronized void add(long address, long bytes) {
        checkBytes(bytes);
        long first = pageOf(address);
        long end = pageOf(address + bytes + pageSize - 1);
        List<Range> merged = new ArrayList<>(Arrays.asList(state.ranges));
        long page = first;
        for (Range r : state.ranges) {
            long rEnd = r.firstPage + r.pageCount;
            if (rEnd <= page) {
                continue;
            }
            if (r.firstPage >= end) {
                break;
            }
            if (r.firstPage > page) {
                merged.addAll(scan(page, r.firstPage));
            }
            page = Math.max(page, rEnd);
        }
        if (page < end) {
            merged.addAll(scan(page, end));
        }
        publish(merged);
    }

    /** Stops tracking the pages of {@code [address, address + bytes)}. */
    public synchronized void remove(long address, long bytes) {
        checkBytes(bytes);
        publish(cut(state.ranges, pageOf(address), pageOf(address + bytes + pageSize - 1), false));
    }

    /** A new PSM holding only this one's ranges within {@code [address, address + bytes)}. */
    public PageSocketMap subset(long address, long bytes) {
        checkBytes(bytes);
        PageSocketMap sub = new PageSocketMap(locator, pageSize, memory);
        sub.publish(cut(state.ranges, pageOf(address), pageOf(address + bytes + pageSize - 1), true));
        return sub;
    }

    /** Asks the locator again for every tracked page (first touches and migrations change them). */
    public synchronized void refresh() {
        List<Range> fresh = new ArrayList<>();
        for (Range r : state.ranges) {
            fresh.addAll(scan(r.firstPage, r.firstPage + r.pageCount));
        }
        publish(fresh);
    }

    /** Moves the tracked pages of a range to one node and records where they went. */
    public void move(long address, long bytes, int node) {
        relocate(address, bytes, MemoryPlacement.onNode(node));
    }

    /** Interleaves the tracked pages of a range over {@code nodes} and records where they went. */
    public void interleave(long address, long bytes, int... nodes) {
        relocate(address, bytes, MemoryPlacement.interleaved(nodes));
    }

    private synchronized void relocate(long address, long bytes, MemoryPlacement target) {
        checkBytes(bytes);
        if (memory == null) {
            throw new UnsupportedOperationException("this PageSocketMap has no NumaMemory to move pages with");
        }
        long first = pageOf(address);
        long end = pageOf(address + bytes + pageSize - 1);
        memory.movePages(first * pageSize, (end - first) * pageSize, target);
        List<Range> kept = cut(state.ranges, first, end, false);
        kept.addAll(scan(first, end));
        publish(kept);
    }

    /** The node of the page holding {@code address}, or -1 when untracked or not yet placed. */
    public int lookup(long address) {
        State s = state;
        long page = pageOf(address);
        int i = Arrays.binarySearch(s.firstPages, page);
        if (i < 0) {
            i = -i - 2;
        }
        if (i < 0) {
            return -1;
        }
        Range r = s.ranges[i];
        return page < r.firstPage + r.pageCount ? r.nodeOfPage(page - r.firstPage) : -1;
    }

    /**
     * The node holding most of the part's first IndexVector (-1 for none), as the kernel reports
     * it, remembered by the part until its pages move: the node scans and the DataPlacer take as
     * the part's.
     */
    public static int homeNode(NumaMemory memory, TablePart part) {
        return part.homeNode(p -> {
            PageSocketMap psm = new PageSocketMap(memory);
            psm.add(p.column(0).indexVector().segment());
            return psm.majorityNode();
        });
    }

    /** The node holding most tracked pages, or -1 when none is placed. */
    public int majorityNode() {
        long[] perNode = state.pagesPerNode;
        int best = -1;
        for (int node = 0; node < perNode.length; node++) {
            if (perNode[node] > 0 && (best < 0 || perNode[node] > perNode[best])) {
                best = node;
            }
        }
        return best;
    }

    public long pages(int node) {
        return state.pagesPerNode[node];
    }

    /** Pages per node, indexed by node id (length {@link Topology#MAX_NODES}). */
    public long[] pagesPerNode() {
        return state.pagesPerNode.clone();
    }

    public List<Range> ranges() {
        return List.of(state.ranges);
    }

    public long pageSize() {
        return pageSize;
    }

    /** Asks the locator for pages {@code [first, end)} and collapses them into ranges. */
    private List<Range> scan(long first, long end) {
        int count = Math.toIntExact(end - first);
        int[] nodes = new int[count];
        locator.locate(first * pageSize, count, nodes);
        return collapse(first, nodes);
    }

    /** Collapses per-page nodes into plain and interleaved ranges (package-private for tests). */
    static List<Range> collapse(long firstPage, int[] nodes) {
        List<Range> out = new ArrayList<>();
        int i = 0;
        while (i < nodes.length) {
            int period = interleavePeriod(nodes, i);
            if (period > 0) {
                int j = i + period;
                while (j < nodes.length && nodes[j] == nodes[j - period]) {
                    j++;
                }
                if (j - i >= 2 * period) {
                    long mask = 0;
                    for (int k = i; k < i + period; k++) {
                        mask |= 1L << nodes[k];
                    }
                    out.add(new Range(firstPage + i, j - i, nodes[i], mask));
                    i = j;
                    continue;
                }
            }
            int j = i + 1;
            while (j < nodes.length && nodes[j] == nodes[i]) {
                j++;
            }
            out.add(new Range(firstPage + i, j - i, nodes[i], 0));
            i = j;
        }
        return out;
    }

    /**
     * The length of the node cycle starting at {@code i} when the pages from there go round
     * distinct nodes in ascending (rotated) order, as the kernel interleaves; else 0.
     */
    private static int interleavePeriod(int[] nodes, int i) {
        long seen = 0;
        for (int p = 0; p <= Topology.MAX_NODES && i + p < nodes.length; p++) {
            int node = nodes[i + p];
            if (node < 0) {
                return 0;
            }
            if ((seen & (1L << node)) != 0) {
                if (node != nodes[i] || p < 2) {
                    return 0;
                }
                int descents = 0;
                for (int k = 0; k < p; k++) {
                    if (nodes[i + k] > nodes[i + (k + 1) % p]) {
                        descents++;
                    }
                }
                return descents == 1 ? p : 0;
            }
            seen |= 1L << node;
        }
        return 0;
    }

    /** The ranges outside {@code [first, end)} (or, with {@code inside}, the parts within it). */
    private static List<Range> cut(Range[] ranges, long first, long end, boolean inside) {
        List<Range> out = new ArrayList<>();
        for (Range r : ranges) {
            long rEnd = r.firstPage + r.pageCount;
            long lo = Math.max(r.firstPage, first);
            long hi = Math.min(rEnd, end);
            if (inside) {
                if (lo < hi) {
                    out.add(slice(r, lo, hi));
                }
                continue;
            }
            if (lo >= hi) {
                out.add(r);
                continue;
            }
            if (r.firstPage < lo) {
                out.add(slice(r, r.firstPage, lo));
            }
            if (hi < rEnd) {
                out.add(slice(r, hi, rEnd));
            }
        }
        return out;
    }

    private static Range slice(Range r, long from, long to) {
        int node = r.nodeOfPage(from - r.firstPage);
        return new Range(from, (int) (to - from), node, r.interleaveMask);
    }

    private void publish(List<Range> ranges) {
        ranges.sort((a, b) -> Long.compare(a.firstPage, b.firstPage));
        List<Range> merged = new ArrayList<>(ranges.size());
        for (Range r : ranges) {
            Range last = merged.isEmpty() ? null : merged.getLast();
            if (last != null && !last.isInterleaved() && !r.isInterleaved() && last.node == r.node
                    && last.firstPage + last.pageCount == r.firstPage) {
                merged.set(merged.size() - 1, new Range(last.firstPage, last.pageCount + r.pageCount, r.node, 0));
            } else {
                merged.add(r);
            }
        }
        long[] perNode = new long[Topology.MAX_NODES];
        long[] firstPages = new long[merged.size()];
        for (int k = 0; k < merged.size(); k++) {
            Range r = merged.get(k);
            firstPages[k] = r.firstPage;
            if (r.isInterleaved()) {
                int cycle = Long.bitCount(r.interleaveMask);
                for (int c = 0; c < cycle; c++) {
                    perNode[r.nodeOfPage(c)] += r.pageCount / cycle + (c < r.pageCount % cycle ? 1 : 0);
                }
            } else if (r.node >= 0) {
                perNode[r.node] += r.pageCount;
            }
        }
        state = new State(merged.toArray(Range[]::new), firstPages, perNode);
    }

    private long pageOf(long address) {
        return Long.divideUnsigned(address, pageSize);
    }

    private static void checkBytes(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("a page range cannot have " + bytes + " bytes");
        }
    }

    private static int nthSetBit(long mask, int n) {
        for (int k = 0; k < n; k++) {
            mask &= mask - 1;
        }
        return Long.numberOfTrailingZeros(mask);
    }
}
