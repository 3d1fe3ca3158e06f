package io.numacol.scheduler;

import io.numacol.scheduler.SchedulerTesting.Kind;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.numacol.scheduler.SchedulerTesting.holdNodeZero;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PriorityTest {

    @ParameterizedTest
    @EnumSource(Kind.class)
    void higherUserPriorityThenOlderStatementThenDeeper(Kind kind) {
        try (Scheduler scheduler = kind.create(Topology.fake(1), StealPolicy.TARGET)) {
            Statement old = scheduler.newStatement();
            Statement young = scheduler.newStatement();
            Statement urgent = scheduler.newStatement(5);
            Statement low = scheduler.newStatement(Statement.MIN_PRIORITY);
            TaskGroup o = old.newTaskGroup();
            TaskGroup y = young.newTaskGroup();
            TaskGroup u = urgent.newTaskGroup();
            TaskGroup l = low.newTaskGroup();
            Task body = ctx -> { };
            QueuedTask young0 = new QueuedTask(body, y, Affinity.none(), TaskClass.OTHER, 0);
            QueuedTask old0 = new QueuedTask(body, o, Affinity.none(), TaskClass.OTHER, 0);
            QueuedTask old1 = new QueuedTask(body, o, Affinity.none(), TaskClass.OTHER, 0);
            QueuedTask oldChild = new QueuedTask(body, o, Affinity.none(), TaskClass.OTHER, 1);
            QueuedTask urgent0 = new QueuedTask(body, u, Affinity.none(), TaskClass.OTHER, 0);
            QueuedTask low0 = new QueuedTask(body, l, Affinity.none(), TaskClass.OTHER, 3);
            assertThat(old0.compareTo(old1)).as("equal priority: the queue keeps arrival order").isZero();
            List<QueuedTask> sorted = new ArrayList<>(List.of(low0, young0, old0, oldChild, old1, urgent0));
            sorted.sort(null); // stable, like the queue
            assertThat(sorted).containsExactly(urgent0, oldChild, old0, old1, young0, low0);
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void userPrioritiesOutsideTheRangeAreRejected(Kind kind) {
        try (Scheduler scheduler = kind.create(Topology.fake(1), StealPolicy.TARGET)) {
            assertThatThrownBy(() -> scheduler.newStatement(Statement.MAX_PRIORITY + 1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1001");
            assertThat(scheduler.newStatement(Statement.MAX_PRIORITY).userPriority()).isEqualTo(Statement.MAX_PRIORITY);
        }
    }

    @Test
    void aBusyWorkerTakesQueuedTasksInPriorityOrder() {
        // BOUND on fake nodes with one hardware thread each: node 0's one worker runs everything.
        try (WorkerPoolScheduler scheduler = SchedulerTesting.scheduler(Topology.fake(4), StealPolicy.BOUND)) {
            AtomicBoolean open = new AtomicBoolean();
            TaskGroup gate = holdNodeZero(scheduler, open);

            Statement old = scheduler.newStatement();
            Statement young = scheduler.newStatement();
            Statement urgent = scheduler.newStatement(10);
            Queue<String> order = new ConcurrentLinkedQueue<>();
            List<TaskGroup> groups = List.of(young.newTaskGroup(), old.newTaskGroup(), urgent.newTaskGroup());
            List<String> names = List.of("young", "old", "urgent");
            for (int i = 0; i < 5; i++) {
                for (int k = 0; k < 3; k++) {
                    String label = names.get(k) + i;
                    groups.get(k).submit(ctx -> order.add(label), Affinity.node(0));
                }
            }
            open.set(true);
            for (TaskGroup g : groups) {
                g.await();
            }
            gate.await();
            assertThat(order).containsExactly("urgent0", "urgent1", "urgent2", "urgent3", "urgent4",
                    "old0", "old1", "old2", "old3", "old4", "young0", "young1", "young2", "young3", "young4");
        }
    }

    /**
     * A worker drains the inbox into its queues only every so many tasks while they hold tasks,
     * and takes tasks in batches: a task of a higher priority submitted meanwhile waits behind at
     * most that many and a batch.
     */
    @Test
    void aHigherPriorityTaskWaitsBehindAtMostTheDrainInterval() {
        try (WorkerPoolScheduler scheduler = SchedulerTesting.scheduler(Topology.fake(4), StealPolicy.BOUND)) {
            AtomicBoolean open = new AtomicBoolean();
            TaskGroup gate = holdNodeZero(scheduler, open);

            Queue<String> order = new ConcurrentLinkedQueue<>();
            TaskGroup urgent = scheduler.newStatement(10).newTaskGroup();
            TaskGroup low = scheduler.newStatement().newTaskGroup();
            int tasks = 5 * WorkerGroup.TASKS_PER_DRAIN;
            for (int i = 0; i < tasks; i++) {
                String label = "low" + i;
                boolean submitsUrgent = i == 3;
                low.submit(ctx -> {
                    order.add(label);
                    if (submitsUrgent) {
                        urgent.submit(c -> order.add("urgent"), Affinity.node(0));
                    }
                }, Affinity.node(0));
            }
            open.set(true);
            low.await();
            urgent.await();
            gate.await();
            List<String> ran = List.copyOf(order);
            assertThat(ran).hasSize(tasks + 1);
            assertThat(ran.indexOf("urgent")).isBetween(4, 4 + WorkerGroup.TASKS_PER_DRAIN + TaskBatch.MAX);
        }
    }
}
