package io.numacol.scheduler;

/**
 * A unit of work. It runs once on a worker; an exception fails its statement (the worker lives
 * on). Tasks should be short (a morsel, an index-vector range) so that priorities, cancellation
 * and stealing act at a fine grain.
 */
@FunctionalInterface
public interface Task {
    void run(TaskContext context) throws Exception;
}
