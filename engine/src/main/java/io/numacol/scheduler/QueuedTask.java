package io.numacol.scheduler;

/**
 * A task as it sits in a queue: the only allocation per submission. Its priority is folded into
 * two longs at submission so that comparing two tasks reads no other object; equal-priority
 * tasks are ordered by the queue (arrival order), not by a sequence number, which would cost a
 * shared atomic per task.
 */
final class QueuedTask implements Comparable<QueuedTask> {
    final Task body;
    final TaskGroup group;
    final Statement statement;
    final Affinity affinity;
    final TaskClass taskClass;
    final int depth;
    private final long rank;
    /** The next older task in its group's inbox; written before the task is published. */
    QueuedTask next;
    /** Deeper first: a child runs before its parent's siblings. */
    private final long depthKey;

    QueuedTask(Task body, TaskGroup group, Affinity affinity, TaskClass taskClass, int depth) {
        this.body = body;
        this.group = group;
        this.statement = group.statement();
        this.affinity = affinity;
        this.taskClass = taskClass;
        this.depth = depth;
        this.rank = statement.rank;
        this.depthKey = (long) Statement.MAX_DEPTH - Math.min(depth, Statement.MAX_DEPTH);
    }

    /** User priority and statement age: the statement's part of the priority. */
    long rank() {
        return rank;
    }

    /** The depth part of the priority (tasks equal in rank and depth leave their queue in arrival order). */
    long depthKey() {
        return depthKey;
    }

    /** Negative when this task runs before {@code other}; 0 for equal priority. */
    @Override
    public int compareTo(QueuedTask other) {
        int c = Long.compare(rank, other.rank);
        return c != 0 ? c : Long.compare(depthKey, other.depthKey);
    }
}
