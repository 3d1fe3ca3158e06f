package io.numacol.scheduler;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

import java.util.BitSet;
import java.util.List;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A worker running the tasks of its batch while the watchdog (or a purge, or close) takes the
 * batch back: {@link TaskBatch#poll} against {@link TaskBatch#takeBack}. The batch holds two tasks
 * and the group's queue none; the worker polls twice. Result: how many tasks the worker got, how
 * many were taken back. Every task goes to exactly one of them: a task run twice, or lost, is
 * forbidden.
 */
@JCStressTest
@Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "The worker ran both before the take-back.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The worker ran one, the other was taken back.")
@Outcome(id = "0, 2", expect = ACCEPTABLE, desc = "Both were taken back before the worker looked.")
@Outcome(expect = FORBIDDEN, desc = "A task was run and taken back, or lost.")
@State
public class BatchPollVsTakeBack {
    private final WorkerGroup group = new WorkerGroup(Handshakes.SCHEDULER, 0, 0, 1, new BitSet(), 1);
    private final TaskBatch batch = new TaskBatch();
    private int polled;
    private List<QueuedTask> taken;

    public BatchPollVsTakeBack() {
        group.addUnstartedWorker(); // the group's one worker, played by an actor: submissions wake no one
        TaskGroup tasks = Handshakes.SCHEDULER.newStatement().newTaskGroup();
        for (int i = 0; i < 7; i++) {
            group.enqueue(new QueuedTask(ctx -> { }, tasks, Affinity.none(), TaskClass.OTHER, 0));
        }
        // a batch of three (seven queued, one hardware thread: three leave four behind), the first run
        batch.poll(group, TaskBatch.MAX);
        QueuedTask[] rest = new QueuedTask[TaskBatch.MAX];
        while (group.pollBatch(rest, TaskBatch.MAX) > 0) {
            // the queue emptied: the batch's two are all there is
        }
    }

    @Actor
    public void worker() {
        for (int i = 0; i < 2; i++) {
            if (batch.poll(group) != null) {
                polled++;
            }
        }
    }

    @Actor
    public void taker() {
        taken = batch.takeBack(null);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r1 = polled;
        r.r2 = taken.size();
    }
}
