package io.numacol.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;

/**
 * The thesis's SQL statement as the scheduler sees it: its arrival (older statements' tasks run
 * first), a user priority, an optional {@link StealPolicy} of its own, a cancel flag and the
 * first failure of any of its tasks. Create one per query with {@link Scheduler#newStatement()}
 * and run its stages as {@link TaskGroup}s.
 *
 * <p>Task order within a group's queues: higher user priority first, then the older statement,
 * then the deeper task (a child before its parent's siblings, so nested task graphs finish
 * depth-first and hold few waiting workers), then the order in which tasks reached the queue. The
 * thesis leaves the weights of its "weighted combination" open; this is lexicographic, so a
 * higher user priority always wins.
 */
public final class Statement {
    public static final int MIN_PRIORITY = -1000;
    public static final int NORMAL_PRIORITY = 0;
    public static final int MAX_PRIORITY = 1000;

    static final int MAX_DEPTH = 0xFFFF;
    private static final int ID_BITS = 52;

    private static final VarHandle CANCELLED;
    private static final VarHandle FAILURE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            CANCELLED = l.findVarHandle(Statement.class, "cancelled", boolean.class);
            FAILURE = l.findVarHandle(Statement.class, "failure", Throwable.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final AbstractScheduler scheduler;
    private final long id;
    private final long arrivalNanos;
    private final int userPriority;
    private final StealPolicy stealPolicy;
    private final boolean policyOverridden;
    /** User priority and age folded into one key: lower runs first. */
    final long rank;
    private volatile boolean cancelled;
    private volatile Throwable failure;

    Statement(AbstractScheduler scheduler, long id, int userPriority, StealPolicy override) {
        if (userPriority < MIN_PRIORITY || userPriority > MAX_PRIORITY) {
            throw new IllegalArgumentException("user priority " + userPriority + " is out of range "
                    + MIN_PRIORITY + ".." + MAX_PRIORITY);
        }
        this.scheduler = scheduler;
        this.id = id;
        this.arrivalNanos = System.nanoTime();
        this.userPriority = userPriority;
        this.stealPolicy = override != null ? override : scheduler.config().stealPolicy();
        this.policyOverridden = override != null;
        this.rank = ((long) (MAX_PRIORITY - userPriority) << ID_BITS) | (id & ((1L << ID_BITS) - 1));
    }

    /** A new stage of this statement. */
    public TaskGroup newTaskGroup() {
        scheduler.checkOpen("create a task group");
        return new TaskGroup(scheduler, this);
    }

    /** What a stage submits into its {@link TaskGroup} ({@link #runStage}). */
    @FunctionalInterface
    public interface Stage {
        void submitTo(TaskGroup group);
    }

    /**
     * Runs one stage of this statement: the tasks {@code stage} submits, as a new group, awaited
     * together. The one place a group's lifecycle is written: if submitting fails part way, the
     * tasks already submitted are abandoned (none outlives what the caller frees on failure, such
     * as a snapshot whose parts they read) and the failure goes on; a task's failure, and a
     * cancellation, come from the wait.
     *
     * @throws StatementFailedException a task threw
     * @throws CancellationException the statement was cancelled
     */
    public void runStage(Stage stage) {
        runStage(stage, () -> false);
    }

    /**
     * A stage of one task, awaited later and alone: {@link #runStage}'s lifecycle cut in two, for
     * a stream that keeps a window of tasks in flight and awaits them in scan order. The caller
     * awaits the group, or abandons it when it stops early; a submit that fails abandons it here.
     */
    public TaskGroup submitAlone(Task task, Affinity affinity, TaskClass taskClass) {
        TaskGroup group = newTaskGroup();
        try {
            group.submit(task, affinity, taskClass);
        } catch (Throwable t) {
            group.abandon();
            throw t;
        }
        return group;
    }

    /**
     * {@link #runStage(Stage)}, ended as cancelled too when {@code stopped} reports a stop once its
     * tasks have returned: a statement's cancel flag or timeout, which the scheduler does not see.
     */
    public void runStage(Stage stage, BooleanSupplier stopped) {
        TaskGroup group = newTaskGroup();
        try {
            stage.submitTo(group);
        } catch (Throwable t) {
            group.abandon();
            throw t;
        }
        group.await();
        if (stopped.getAsBoolean()) {
            throw new CancellationException("statement cancelled");
        }
    }

    /**
     * Stops the statement: workers skip its tasks from now on, its queued tasks are removed from
     * every queue at once, and awaiting its groups throws a CancellationException once the tasks
     * already running have returned. Idempotent.
     */
    public void cancel() {
        if (CANCELLED.compareAndSet(this, false, true)) {
            scheduler.purge(this);
        }
    }

    /** Marks cancelled without purging: for tasks that are being dropped anyway (shutdown). */
    void markCancelled() {
        cancelled = true;
    }

    public boolean isCancelled() {
        return cancelled;
    }

    /** The first exception a task of this statement threw. */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    /** Records the first failure and cancels the rest of the statement. */
    void taskFailed(Throwable t) {
        if (t instanceof CancellationException && cancelled) {
            return; // a task noticing the cancellation, not a failure of its own
        }
        if (FAILURE.compareAndSet(this, null, t)) {
            cancel();
        }
    }

    /**
     * Throws what awaiting a group of this statement must throw once the group drained: a
     * task's VirtualMachineError (out of memory, a stack overflow, an internal error) as itself,
     * which no layer may turn into a statement's failure, anything else a task threw as the cause
     * of a StatementFailedException.
     */
    void throwIfUnsuccessful() {
        Throwable f = failure;
        if (f instanceof VirtualMachineError e) {
            throw e;
        }
        if (f != null) {
            throw new StatementFailedException(this, f);
        }
        if (cancelled) {
            throw new CancellationException("statement " + id + " was cancelled");
        }
    }

    /** Arrival order among the scheduler's statements. */
    public long id() {
        return id;
    }

    /** System.nanoTime() when the statement was created. */
    public long arrivalNanos() {
        return arrivalNanos;
    }

    public int userPriority() {
        return userPriority;
    }

    /** The policy its tasks use: its own override, or the engine's. */
    public StealPolicy stealPolicy() {
        return stealPolicy;
    }

    public boolean overridesStealPolicy() {
        return policyOverridden;
    }

    AbstractScheduler scheduler() {
        return scheduler;
    }

    @Override
    public String toString() {
        return "statement " + id + " (priority " + userPriority + ", " + stealPolicy
                + (cancelled ? ", cancelled" : "") + (failure != null ? ", failed" : "") + ")";
    }
}
