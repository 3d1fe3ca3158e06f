package io.numacol.storage;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A sequence gives each number once, and a restored or advanced one goes on past what was given. */
class SequenceTest {

    @Test
    void aSequenceCountsFromItsStartByItsIncrementAndPeekTakesNothing() {
        Sequence s = new Sequence(10, 5);
        assertThat(s.start()).isEqualTo(10);
        assertThat(s.increment()).isEqualTo(5);
        assertThat(s.peek()).isEqualTo(10);
        assertThat(s.peek()).as("peek twice, still not taken").isEqualTo(10);
        assertThat(s.next()).isEqualTo(10);
        assertThat(s.next()).isEqualTo(15);
        assertThat(s.peek()).isEqualTo(20);
        assertThat(s.start()).as("the start stays what it was created with").isEqualTo(10);
        Sequence down = new Sequence(-1, -2);
        assertThat(down.next()).isEqualTo(-1);
        assertThat(down.next()).isEqualTo(-3);
        assertThat(down.peek()).isEqualTo(-5);
        assertThatThrownBy(() -> new Sequence(1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRestoredSequenceGoesOnFromItsNextNumber() {
        Sequence s = Sequence.restored(1, 3, 100);
        assertThat(s.start()).isEqualTo(1);
        assertThat(s.increment()).isEqualTo(3);
        assertThat(s.peek()).isEqualTo(100);
        assertThat(s.next()).isEqualTo(100);
        assertThat(s.next()).isEqualTo(103);
        assertThat(Sequence.byId(s.id())).isSameAs(s);
        Sequence copy = Sequence.restored(s.start(), s.increment(), s.peek());
        assertThat(copy.next()).isEqualTo(106);
        assertThat(copy.id()).isNotEqualTo(s.id());
        assertThatThrownBy(() -> Sequence.restored(1, 0, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void advancePastMovesTheNextNumberBeyondAValueAndNeverBack() {
        Sequence up = new Sequence(1, 2);
        up.advancePast(10);
        assertThat(up.peek()).isEqualTo(12);
        up.advancePast(5); // below what is next: stays
        assertThat(up.peek()).isEqualTo(12);
        up.advancePast(11);
        assertThat(up.peek()).isEqualTo(13);
        assertThat(up.next()).isEqualTo(13);
        up.advancePast(-100);
        assertThat(up.next()).isEqualTo(15);

        Sequence down = new Sequence(0, -10);
        down.advancePast(-35);
        assertThat(down.peek()).isEqualTo(-45);
        down.advancePast(-20); // above what is next, which is beyond it counting down: stays
        assertThat(down.peek()).isEqualTo(-45);
        assertThat(down.next()).isEqualTo(-45);
        assertThat(down.next()).isEqualTo(-55);
    }

    @Test
    void advancePastTheEndOfTheRangeStopsAtTheEnd() {
        Sequence up = new Sequence(1, 10);
        up.advancePast(Long.MAX_VALUE - 3);
        assertThat(up.peek()).isEqualTo(Long.MAX_VALUE);
        Sequence down = new Sequence(-1, -10);
        down.advancePast(Long.MIN_VALUE + 3);
        assertThat(down.peek()).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void concurrentNextAndAdvancePastNeverGiveANumberTwiceNorOneAdvancedPast() throws Exception {
        Sequence s = new Sequence(1, 1);
        Set<Long> taken = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 10_000; i++) {
                        assertThat(taken.add(s.next())).isTrue();
                    }
                }));
            }
            done.add(pool.submit(() -> {
                for (long v = 0; v < 50_000; v += 7) {
                    s.advancePast(v);
                    assertThat(s.peek()).isGreaterThan(v);
                }
            }));
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        assertThat(taken).hasSize(30_000);
        assertThat(s.peek()).as("past the last value advanced past, 49994").isGreaterThan(49_994);
    }
}
