package io.numacol.scheduler;

import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

import static org.assertj.core.api.Assertions.assertThat;

class InboxTest {
    @Test
    void takesEverythingPushedOldestFirst() {
        try (WorkerPoolScheduler scheduler = SchedulerTesting.scheduler(Topology.fake(1), StealPolicy.TARGET)) {
            TaskGroup group = scheduler.newStatement().newTaskGroup();
            Inbox inbox = new Inbox(1);
            assertThat(inbox.isEmpty()).isTrue();
            assertThat(inbox.takeAll()).isNull();
            List<QueuedTask> pushed = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                QueuedTask t = new QueuedTask(ctx -> { }, group, Affinity.none(), TaskClass.OTHER, 0);
                inbox.push(t);
                pushed.add(t);
            }
            assertThat(inbox.isEmpty()).isFalse();
            assertThat(chain(inbox.takeAll())).containsExactlyElementsOf(pushed);
            assertThat(inbox.isEmpty()).isTrue();
        }
    }

    /**
     * Four threads push 20,000 tasks each while a fifth takes: every task is taken once, and each
     * thread's tasks in the order it pushed them.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4, 16})
    void concurrentPushesAreNeitherLostNorDoubledNorReordered(int stripes) throws Exception {
        try (WorkerPoolScheduler scheduler = SchedulerTesting.scheduler(Topology.fake(1), StealPolicy.TARGET)) {
            TaskGroup group = scheduler.newStatement().newTaskGroup();
            Inbox inbox = new Inbox(stripes);
            int threads = 4;
            int each = 20_000;
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> pushers = new ArrayList<>();
            List<List<QueuedTask>> pushedBy = new ArrayList<>();
            for (int p = 0; p < threads; p++) {
                List<QueuedTask> pushed = new ArrayList<>(each);
                pushedBy.add(pushed);
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    for (int i = 0; i < each; i++) {
                        QueuedTask t = new QueuedTask(ctx -> { }, group, Affinity.none(), TaskClass.OTHER, 0);
                        pushed.add(t);
                        inbox.push(t);
                    }
                });
                thread.start();
                pushers.add(thread);
            }
            Set<QueuedTask> taken = new HashSet<>();
            List<QueuedTask> inOrder = new ArrayList<>();
            start.countDown();
            boolean pushing = true;
            while (pushing) {
                pushing = pushers.stream().anyMatch(Thread::isAlive);
                for (QueuedTask t : chain(inbox.takeAll())) {
                    assertThat(taken.add(t)).isTrue();
                    inOrder.add(t);
                }
            }
            for (Thread t : pushers) {
                t.join();
            }
            for (QueuedTask t : chain(inbox.takeAll())) {
                assertThat(taken.add(t)).isTrue();
                inOrder.add(t);
            }
            assertThat(taken).hasSize(threads * each);
            for (List<QueuedTask> pushed : pushedBy) {
                Set<QueuedTask> mine = Collections.newSetFromMap(new IdentityHashMap<>());
                mine.addAll(pushed);
                assertThat(inOrder.stream().filter(mine::contains).toList()).containsExactlyElementsOf(pushed);
            }
        }
    }

    private static List<QueuedTask> chain(QueuedTask first) {
        List<QueuedTask> out = new ArrayList<>();
        for (QueuedTask t = first; t != null; t = t.next) {
            out.add(t);
        }
        return out;
    }
}
