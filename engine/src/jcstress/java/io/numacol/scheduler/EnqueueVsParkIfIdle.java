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
 * A submission racing with the group's only worker as it decides to park: {@link
 * WorkerGroup#enqueue} against {@link WorkerGroup#parkIfIdle}, the Dekker handshake on the inbox
 * and the working count. One actor submits, the other plays the worker (whose thread never
 * starts: parking forever cannot be observed, so the arbiter looks at where the worker ended up).
 * Result: whether parkIfIdle said to park; whether the worker is on the parking lot; whether it
 * holds a wake permit. The lost wake-up, the task queued while the only worker sits on the parking
 * lot with no permit, is forbidden: only the watchdog's next round would run the task.
 */
@JCStressTest
@Outcome(id = "false, false, false", expect = ACCEPTABLE, desc = "The worker found the task in its queue and did not park.")
@Outcome(id = "false, false, true", expect = ACCEPTABLE,
        desc = "The worker parked, then saw the task in the inbox and took itself off the parking lot.")
@Outcome(id = "true, false, true", expect = ACCEPTABLE, desc = "The worker parked and the submission woke it.")
@Outcome(id = "true, true, false", expect = FORBIDDEN, desc = "Lost wake-up: the task is queued and the only worker parked for good.")
@Outcome(expect = FORBIDDEN, desc = "The worker's state contradicts itself.")
@State
public class EnqueueVsParkIfIdle {
    private final WorkerGroup group = new WorkerGroup(Handshakes.SCHEDULER, 0, 0, 1, new BitSet(), 1);
    private final Worker worker = group.addUnstartedWorker();
    private final QueuedTask task = new QueuedTask(ctx -> { }, Handshakes.SCHEDULER.newStatement().newTaskGroup(),
            Affinity.none(), TaskClass.OTHER, 0);
    private WorkerGroup.Enqueued enqueued;
    private boolean parked;

    @Actor
    public void submitter() {
        enqueued = group.enqueue(task);
    }

    @Actor
    public void worker() {
        parked = group.parkIfIdle(worker);
    }

    @Arbiter
    public void arbiter(ZZZ_Result r) {
        if (enqueued != WorkerGroup.Enqueued.QUEUED || group.queueLength(false) != 1) {
            throw new IllegalStateException("the task should be queued, and still is: " + enqueued + ", " + group);
        }
        r.r1 = parked;
        r.r2 = worker.state == Worker.State.PARKED;
        r.r3 = worker.wakePermit;
    }
}
