package io.numacol.scheduler;

import io.numacol.scheduler.SchedulerTesting.Kind;
import io.numacol.topology.Topology;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.assertj.core.api.Assertions.assertThat;

/** 10^6 tiny tasks from many submitting threads: every one runs exactly once. */
class StressTest {
    private static final int TASKS = 1_000_000;
    private static final int SUBMITTERS = 8;

    @ParameterizedTest
    @MethodSource(SchedulerTesting.KINDS_AND_TOPOLOGIES)
    void aMillionTinyTasksNoneLostNoneRunTwice(Kind kind, Topology topology) throws Exception {
        try (Scheduler scheduler = kind.create(topology, StealPolicy.TARGET)) {
            AtomicIntegerArray runs = new AtomicIntegerArray(TASKS);
            int nodes = topology.nodeCount();
            // Half the submitters share one statement and stage, the others have their own.
            Statement shared = scheduler.newStatement();
            TaskGroup sharedGroup = shared.newTaskGroup();
            List<TaskGroup> groups = new ArrayList<>();
            Names threadsSeen = new Names();
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> submitters = new ArrayList<>();
            List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < SUBMITTERS; t++) {
                TaskGroup g = t % 2 == 0 ? sharedGroup : scheduler.newStatement(t % 3).newTaskGroup();
                groups.add(g);
                int first = t * (TASKS / SUBMITTERS);
                int last = first + TASKS / SUBMITTERS;
                Thread submitter = new Thread(() -> {
                    try {
                        go.await();
                        // Each submitted task runs its own id and spawns a child for the next one.
                        for (int id = first; id < last; id += 2) {
                            int mine = id;
                            Affinity a = switch (mine % 6) {
                                case 0 -> Affinity.none();
                                case 2 -> Affinity.node(mine % nodes);
                                default -> Affinity.hard(mine % nodes);
                            };
                            g.submit(ctx -> {
                                runs.incrementAndGet(mine);
                                threadsSeen.add(Thread.currentThread().getName());
                                ctx.spawn(child -> runs.incrementAndGet(mine + 1), mine % 4 == 0 ? Affinity.none() : a);
                            }, a);
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                }, "stress-submitter-" + t);
                submitters.add(submitter);
                submitter.start();
            }
            go.countDown();
            for (Thread t : submitters) {
                t.join();
            }
            for (TaskGroup g : groups) {
                g.await();
            }
            assertThat(errors).isEmpty();
            int missing = 0;
            int twice = 0;
            for (int i = 0; i < TASKS; i++) {
                int n = runs.get(i);
                missing += n == 0 ? 1 : 0;
                twice += n > 1 ? 1 : 0;
            }
            assertThat(missing).as("tasks never run").isZero();
            assertThat(twice).as("tasks run more than once").isZero();
            assertThat(SchedulerTesting.sum(scheduler.meterRegistry(), "tasks.run")).isEqualTo(TASKS);
            // Inline, each submitter ran its own tasks.
            String runner = kind == Kind.POOL ? "numacol-worker-" : "stress-submitter-";
            assertThat(threadsSeen.values).allSatisfy(name -> assertThat(name).startsWith(runner));
        }
    }

    /** Worker names seen (a handful), without a lock on the hot path. */
    private static final class Names {
        final Set<String> values = ConcurrentHashMap.newKeySet();

        void add(String name) {
            if (!values.contains(name)) {
                values.add(name);
            }
        }
    }
}
