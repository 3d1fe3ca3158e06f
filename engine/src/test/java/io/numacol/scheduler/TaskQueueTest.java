package io.numacol.scheduler;

import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class TaskQueueTest {

    record Arrival(QueuedTask task, long order) implements Comparable<Arrival> {
        @Override
        public int compareTo(Arrival o) {
            int c = task.compareTo(o.task);
            return c != 0 ? c : Long.compare(order, o.order);
        }
    }

    @Test
    void pollsInTheOrderOfAPriorityQueueOfTasks() {
        try (WorkerPoolScheduler scheduler = SchedulerTesting.scheduler(Topology.fake(1), StealPolicy.TARGET)) {
            Random random = new Random(7);
            List<TaskGroup> groups = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                groups.add(scheduler.newStatement(random.nextInt(3) - 1).newTaskGroup());
            }
            TaskQueue queue = new TaskQueue();
            // Priority, then arrival order.
            PriorityQueue<Arrival> reference = new PriorityQueue<>();
            long arrivals = 0;
            for (int round = 0; round < 20_000; round++) {
                if (random.nextInt(3) > 0 || reference.isEmpty()) {
                    // Runs of one stage and depth, as operators submit them.
                    TaskGroup g = groups.get(random.nextInt(groups.size()));
                    int depth = random.nextInt(3);
                    for (int k = random.nextInt(5); k >= 0; k--) {
                        QueuedTask t = new QueuedTask(ctx -> { }, g, Affinity.none(), TaskClass.OTHER, depth);
                        queue.offer(t);
                        reference.add(new Arrival(t, arrivals++));
                    }
                } else {
                    assertThat(queue.peek()).isSameAs(reference.peek().task());
                    QueuedTask polled = queue.poll();
                    assertThat(polled).isSameAs(reference.poll().task());
                    if (random.nextBoolean()) {
                        // a batch: more of the same priority, as many as there are up to the room
                        QueuedTask[] out = new QueuedTask[8];
                        int room = 1 + random.nextInt(7);
                        int n = queue.pollSamePriority(out, 1, 1 + room, polled);
                        for (int i = 1; i <= n; i++) {
                            assertThat(reference.peek().task().compareTo(polled)).isZero();
                            assertThat(out[i]).isSameAs(reference.poll().task());
                        }
                        if (n < room) {
                            assertThat(reference.isEmpty() || reference.peek().task().compareTo(polled) != 0).isTrue();
                        }
                    }
                }
                assertThat(queue.size()).isEqualTo(reference.size());
            }
            while (!reference.isEmpty()) {
                assertThat(queue.poll()).isSameAs(reference.poll().task());
            }
            assertThat(queue.isEmpty()).isTrue();
            assertThat(queue.poll()).isNull();
            assertThat(queue.peek()).isNull();
        }
    }

    @Test
    void removesAStatementsTasksAndDrainsTheRest() {
        try (WorkerPoolScheduler scheduler = SchedulerTesting.scheduler(Topology.fake(1), StealPolicy.TARGET)) {
            Statement a = scheduler.newStatement();
            Statement b = scheduler.newStatement();
            TaskQueue queue = new TaskQueue();
            List<QueuedTask> ofA = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                Statement s = i % 3 == 0 ? a : b;
                QueuedTask t = new QueuedTask(ctx -> { }, s.newTaskGroup(), Affinity.none(), TaskClass.OTHER, i % 4);
                queue.offer(t);
                if (s == a) {
                    ofA.add(t);
                }
            }
            assertThat(queue.remove(a)).containsExactlyInAnyOrderElementsOf(ofA);
            assertThat(queue.size()).isEqualTo(20);
            QueuedTask previous = null;
            List<QueuedTask> rest = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                QueuedTask t = queue.poll();
                assertThat(t.statement).isSameAs(b);
                if (previous != null) {
                    assertThat(previous.compareTo(t)).isLessThanOrEqualTo(0);
                }
                previous = t;
            }
            queue.drainTo(rest::add);
            assertThat(rest).hasSize(15).allSatisfy(t -> assertThat(t.statement).isSameAs(b));
            assertThat(queue.isEmpty()).isTrue();
        }
    }
}
