package io.numacol.scheduler;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

import java.util.concurrent.TimeUnit;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A stage's last task completing while a thread starts to await the stage: {@link
 * TaskGroup#taskDone} against {@link TaskGroup#await(long, TimeUnit)}, which waits in
 * waitDrained, the Dekker handshake on the waiter count and the completion count. A missed
 * wake-up would leave the waiter blocked for good; it waits with a bound here, so a missed wake-up
 * shows as an await that lasted its whole bound although the task was done within the first half
 * of it. The bound is long (5 s) because a woken waiter on a loaded machine may wait to be
 * scheduled again: half a second was seen on 2 cores at a load of 6, so only a stall of 2.5 s
 * could pass for a missed wake-up. Result: whether await found the stage drained; whether the
 * waiter missed the wake-up; whether the task was still pending just before the waiter started to
 * await it (the race this test is for).
 */
@JCStressTest
@Outcome(id = "true, false, true", expect = ACCEPTABLE,
        desc = "The task was pending as the waiter came: it waited and was woken, or the completion landed as it began.")
@Outcome(id = "true, false, false", expect = ACCEPTABLE, desc = "The task was done before the waiter came: nothing to wait for.")
@Outcome(id = "true, true, true", expect = FORBIDDEN, desc = "Missed wake-up: the waiter slept out its bound although the task was long done.")
@Outcome(expect = FORBIDDEN, desc = "The waiter gave up with the task pending (the completion unseen for 5 s), or missed the wake-up.")
@State
public class TaskDoneVsWaitDrained {
    private static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final TaskGroup group = Handshakes.SCHEDULER.newStatement().newTaskGroup();
    private long doneAt;
    private long waitStart;
    private long waitEnd;

    public TaskDoneVsWaitDrained() {
        group.taskAdded();
    }

    @Actor
    public void completer() {
        group.taskDone();
        doneAt = System.nanoTime();
    }

    @Actor
    public void waiter(ZZZ_Result r) {
        r.r3 = group.pending() > 0;
        waitStart = System.nanoTime();
        r.r1 = group.await(BOUND_NANOS, TimeUnit.NANOSECONDS);
        waitEnd = System.nanoTime();
    }

    @Arbiter
    public void arbiter(ZZZ_Result r) {
        r.r2 = waitEnd - waitStart >= BOUND_NANOS && doneAt - waitStart < BOUND_NANOS / 2;
    }
}
