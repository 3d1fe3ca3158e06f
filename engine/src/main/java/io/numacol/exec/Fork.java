package io.numacol.exec;

import io.numacol.scheduler.Affinity;
import io.numacol.scheduler.Statement;
import io.numacol.scheduler.TaskClass;

import java.util.function.IntConsumer;

/**
 * Runs independent pieces of work, at once where it can, and returns when all are done: how a
 * part's filter tests a large dictionary (a LIKE over a million comments) on every worker
 * rather than on the thread that plans the scan.
 */
@FunctionalInterface
public interface Fork {
    /** Runs {@code piece} for each of {@code 0..count-1}; a piece's failure is thrown here. */
    void run(int count, IntConsumer piece);

    /** The pieces one after another on the calling thread. */
    Fork SERIAL = (count, piece) -> {
        for (int i = 0; i < count; i++) {
            piece.accept(i);
        }
    };

    /** The pieces as tasks of {@code statement} with {@code affinity} (the node of the memory they read). */
    static Fork tasks(Statement statement, Affinity affinity) {
        return (count, piece) -> {
            if (count <= 1) {
                SERIAL.run(count, piece);
                return;
            }
            statement.runStage(group -> {
                for (int i = 0; i < count; i++) {
                    int index = i;
                    group.submit(context -> piece.accept(index), affinity, TaskClass.SCAN);
                }
            });
        };
    }
}
