package io.numacol.memory;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Bytes numacol holds per node and {@link Component}, from its own bookkeeping of where it
 * asked pages to go (interleaved pages counted on the node they are due to land on). What the
 * kernel actually did is the PageSocketMap's business.
 */
public final class MemoryAccounting {
    private static final int COMPONENTS = Component.values().length;

    private final int nodes;
    private final AtomicLongArray bytes;

    MemoryAccounting(int nodes) {
        this.nodes = nodes;
        this.bytes = new AtomicLongArray(nodes * COMPONENTS);
    }

    // one flat array by node and component ordinal: no map lookup on every allocation and free
    @SuppressWarnings("EnumOrdinal")
    void add(int node, Component component, long delta) {
        bytes.addAndGet(node * COMPONENTS + component.ordinal(), delta);
    }

    @SuppressWarnings("EnumOrdinal")
    public long bytes(int node, Component component) {
        return bytes.get(node * COMPONENTS + component.ordinal());
    }

    public long bytes(int node) {
        long sum = 0;
        for (int c = 0; c < COMPONENTS; c++) {
            sum += bytes.get(node * COMPONENTS + c);
        }
        return sum;
    }

    public long totalBytes() {
        long sum = 0;
        for (int node = 0; node < nodes; node++) {
            sum += bytes(node);
        }
        return sum;
    }
}
