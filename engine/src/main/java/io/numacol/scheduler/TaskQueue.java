package io.numacol.scheduler;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * A priority queue of tasks made for how tasks arrive: in long runs of equal priority (one stage
 * of one statement at one depth). Tasks of equal priority share a FIFO bucket, and only the
 * buckets form a binary heap, so offering and polling within a run is O(1) and never touches
 * other tasks (a heap of tasks would compare, and pull into cache, log n of them per poll).
 * Equal-priority tasks leave in the order they were queued (about the order they were submitted:
 * see {@link Inbox#takeAll}). Not thread-safe: the group's lock guards it.
 */
final class TaskQueue {
    private static final int SPARE_BUCKETS = 16;

    /** Tasks of one priority (rank and depth), oldest first. */
    private static final class Bucket {
        long rank;
        long depthKey;
        int heapIndex = -1;
        final ArrayDeque<QueuedTask> tasks = new ArrayDeque<>();

        boolean before(Bucket o) {
            return rank != o.rank ? rank < o.rank : depthKey < o.depthKey;
        }
    }

    private Bucket[] heap = new Bucket[8];
    private int buckets;
    private int size;
    /** Where the last task went: the next one almost always goes there too. */
    private Bucket last;
    private final ArrayDeque<Bucket> spare = new ArrayDeque<>();

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void offer(QueuedTask t) {
        Bucket b = last;
        if (b == null || b.heapIndex < 0 || b.rank != t.rank() || b.depthKey != t.depthKey()) {
            b = find(t);
            if (b == null) {
                b = spare.isEmpty() ? new Bucket() : spare.pop();
                b.rank = t.rank();
                b.depthKey = t.depthKey();
                insert(b);
            }
            last = b;
        }
        b.tasks.addLast(t);
        size++;
    }

    private Bucket find(QueuedTask t) {
        for (int i = 0; i < buckets; i++) {
            Bucket b = heap[i];
            if (b.rank == t.rank() && b.depthKey == t.depthKey()) {
                return b;
            }
        }
        return null;
    }

    QueuedTask peek() {
        return buckets == 0 ? null : heap[0].tasks.peekFirst();
    }

    QueuedTask poll() {
        if (buckets == 0) {
            return null;
        }
        Bucket top = heap[0];
        QueuedTask t = top.tasks.pollFirst();
        size--;
        if (top.tasks.isEmpty()) {
            removeAt(0);
        }
        return t;
    }

    /**
     * After {@link #poll}: more tasks of the priority it returned, into {@code out[from..to)}, as
     * long as there are; returns how many. It reads no task (their lines may sit in another core's
     * cache, and this runs under the group's lock).
     */
    int pollSamePriority(QueuedTask[] out, int from, int to, QueuedTask polled) {
        if (buckets == 0) {
            return 0;
        }
        Bucket top = heap[0];
        if (top.rank != polled.rank() || top.depthKey != polled.depthKey()) {
            return 0;
        }
        int n = Math.min(to - from, top.tasks.size());
        for (int i = 0; i < n; i++) {
            out[from + i] = top.tasks.pollFirst();
        }
        size -= n;
        if (top.tasks.isEmpty()) {
            removeAt(0);
        }
        return n;
    }

    /** Removes the tasks of {@code statement} (whole buckets: a bucket holds one statement's tasks). */
    List<QueuedTask> remove(Statement statement) {
        List<Bucket> matching = new ArrayList<>();
        for (int i = 0; i < buckets; i++) {
            if (heap[i].tasks.peekFirst().statement == statement) {
                matching.add(heap[i]);
            }
        }
        List<QueuedTask> removed = new ArrayList<>();
        for (Bucket b : matching) {
            removed.addAll(b.tasks);
            size -= b.tasks.size();
            b.tasks.clear();
            removeAt(b.heapIndex);
        }
        return removed;
    }

    void drainTo(Consumer<QueuedTask> sink) {
        for (int i = 0; i < buckets; i++) {
            heap[i].tasks.forEach(sink);
            heap[i].tasks.clear();
            heap[i].heapIndex = -1;
            heap[i] = null;
        }
        buckets = 0;
        size = 0;
        last = null;
    }

    private void insert(Bucket b) {
        if (buckets == heap.length) {
            heap = Arrays.copyOf(heap, buckets * 2);
        }
        siftUp(buckets++, b);
    }

    private void removeAt(int i) {
        Bucket gone = heap[i];
        gone.heapIndex = -1;
        Bucket moved = heap[--buckets];
        heap[buckets] = null;
        if (i < buckets) {
            siftDown(i, moved);
            if (heap[i] == moved) {
                siftUp(i, moved);
            }
        }
        if (spare.size() < SPARE_BUCKETS) {
            spare.push(gone);
        }
        if (last == gone) {
            last = null;
        }
    }

    private void siftUp(int i, Bucket b) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Bucket p = heap[parent];
            if (!b.before(p)) {
                break;
            }
            heap[i] = p;
            p.heapIndex = i;
            i = parent;
        }
        heap[i] = b;
        b.heapIndex = i;
    }

    private void siftDown(int i, Bucket b) {
        int half = buckets >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            Bucket c = heap[child];
            int right = child + 1;
            if (right < buckets && heap[right].before(c)) {
                child = right;
                c = heap[child];
            }
            if (!c.before(b)) {
                break;
            }
            heap[i] = c;
            c.heapIndex = i;
            i = child;
        }
        heap[i] = b;
        b.heapIndex = i;
    }
}
