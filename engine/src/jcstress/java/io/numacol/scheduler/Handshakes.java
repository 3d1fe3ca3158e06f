package io.numacol.scheduler;

import io.numacol.topology.Topology;

/** What the jcstress tests of the scheduler's handshakes share. */
final class Handshakes {
    /**
     * A scheduler without threads, one per forked VM: the tests build their own groups and task
     * groups on it, and their actors play the workers.
     */
    static final WorkerPoolScheduler SCHEDULER = new WorkerPoolScheduler(Topology.fake(1), SchedulerConfig.defaults(), false);

    private Handshakes() {
    }
}
