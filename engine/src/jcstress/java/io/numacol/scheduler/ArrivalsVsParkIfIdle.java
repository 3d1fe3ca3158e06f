package io.numacol.scheduler;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZZ_Result;

import java.util.BitSet;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * One worker drains the inbox for a batch while the group's other worker decides to park: {@link
 * WorkerGroup#pollBatch} takes the inbox without the lock, so for a moment its tasks are in no
 * queue, and {@link WorkerGroup#parkIfIdle} may find nothing. Four tasks wait in the inbox (their
 * submission woke no one: both workers were working); the poller takes one and queues three (or,
 * if the other worker moved the inbox to the queues first and the poller's unlocked look saw
 * neither, none: it would look again under the lock before it parked).
 * Result: whether parkIfIdle said to park; whether the second worker is on the parking lot;
 * whether it holds a wake permit. Tasks queued while a worker of a group below its
 * hardware threads sits parked without a permit is forbidden: only the watchdog would wake it.
 */
@JCStressTest
@Outcome(id = "false, false, false", expect = ACCEPTABLE, desc = "The worker found the queued tasks and did not park.")
@Outcome(id = "false, false, true", expect = ACCEPTABLE,
        desc = "The worker parked, then saw the tasks in the inbox and took itself off the parking lot.")
@Outcome(id = "true, false, true", expect = ACCEPTABLE, desc = "The worker parked and the poller woke it for the tasks it queued.")
@Outcome(id = "true, true, false", expect = FORBIDDEN, desc = "Lost wake-up: tasks queued and a worker parked for good.")
@Outcome(expect = FORBIDDEN, desc = "The worker's state contradicts itself.")
@State
public class ArrivalsVsParkIfIdle {
    private final WorkerGroup group = new WorkerGroup(Handshakes.SCHEDULER, 0, 0, 2, new BitSet(), 2);
    private final Worker idle;
    private final QueuedTask[] out = new QueuedTask[TaskBatch.MAX];
    private int polled;
    private boolean parked;

    public ArrivalsVsParkIfIdle() {
        group.addUnstartedWorker(); // the poller, played by an actor
        idle = group.addUnstartedWorker();
        TaskGroup tasks = Handshakes.SCHEDULER.newStatement().newTaskGroup();
        for (int i = 0; i < 4; i++) {
            group.enqueue(new QueuedTask(ctx -> { }, tasks, Affinity.none(), TaskClass.OTHER, 0));
        }
    }

    @Actor
    public void poller() {
        polled = group.pollBatch(out, TaskBatch.MAX);
    }

    @Actor
    public void worker() {
        parked = group.parkIfIdle(idle);
    }

    @Arbiter
    public void arbiter(ZZZ_Result r) {
        if (polled + group.queueLength(false) != 4 || polled > 1) {
            throw new IllegalStateException("four tasks, at most one polled, the rest queued, not " + polled + " and "
                    + group.queueLength(false) + ": " + group);
        }
        r.r1 = parked;
        r.r2 = idle.state == Worker.State.PARKED;
        r.r3 = idle.wakePermit;
    }
}
