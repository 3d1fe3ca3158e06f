package io.numacol.exec;

import io.numacol.scheduler.TaskContext;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;

/**
 * An operator's state per worker, found by the running task's {@link TaskContext#workerSlot()}:
 * what the morsel paper keeps thread-local. A task uses its worker's value alone while it runs
 * (a worker runs one task at a time, and a pipeline's tasks never wait for other tasks inside);
 * the values are read together once the operator's tasks are done, after their group's wait.
 */
final class WorkerLocal<T> {
    private final Supplier<T> make;
    /** Indexed by worker slot; grown and written under this object's lock, read without it by each worker for its own slot. */
    private volatile Object[] values = new Object[8];

    WorkerLocal(Supplier<T> make) {
        this.make = make;
    }

    /** The running worker's value, made on its first ask. */
    @SuppressWarnings("unchecked")
    T get(TaskContext context) {
        int slot = context.workerSlot();
        Object[] v = values;
        if (slot < v.length && v[slot] != null) {
            return (T) v[slot];
        }
        return make(slot);
    }

    private synchronized T make(int slot) {
        Object[] v = values;
        if (slot >= v.length) {
            v = Arrays.copyOf(v, Math.max(slot + 1, 2 * v.length));
        }
        @SuppressWarnings("unchecked")
        T value = (T) v[slot];
        if (value == null) {
            value = make.get();
            v[slot] = value;
        }
        values = v;
        return value;
    }

    /** Forgets the running worker's value: its next ask makes another. */
    synchronized void drop(TaskContext context) {
        int slot = context.workerSlot();
        Object[] v = values;
        if (slot < v.length) {
            v[slot] = null;
            values = v; // publishes the write to the workers' unlocked reads
        }
    }

    /** Every worker's value; only once the tasks that use them are done. */
    @SuppressWarnings("unchecked")
    synchronized List<T> all() {
        List<T> out = new ArrayList<>();
        for (Object o : values) {
            if (o != null) {
                out.add((T) o);
            }
        }
        return out;
    }
}
