package io.numacol.scheduler;

/**
 * A worker group's parked workers, the most recently parked on top: it is woken first, its
 * cache the warmest. A stack threaded through the workers ({@link Worker#nextParked}), changed
 * only under the group's lock; its size is also read without it (gauges, a thief's quick look).
 */
final class ParkingLot {
    private Worker top;
    private volatile int size;

    // changed under the group's lock only; volatile for the readers that take no lock
    @SuppressWarnings("NonAtomicVolatileUpdate")
    void push(Worker w) {
        w.nextParked = top;
        top = w;
        size++;
    }

    /** The most recently parked worker, taken off; the lot must not be empty. */
    @SuppressWarnings("NonAtomicVolatileUpdate")
    Worker pop() {
        Worker w = top;
        top = w.nextParked;
        w.nextParked = null;
        size--;
        return w;
    }

    boolean isEmpty() {
        return top == null;
    }

    int size() {
        return size;
    }
}
