package io.numacol.scan;

import io.numacol.storage.VidRange;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class VidPredicateTest {

    @Test
    void rangesCompareUnsigned() {
        VidPredicate.Between upper = VidPredicate.range(Integer.MAX_VALUE, -1);
        assertThat(upper.isEmpty()).isFalse();
        assertThat(upper.test(-5)).isTrue();
        assertThat(upper.test(Integer.MIN_VALUE)).isTrue();
        assertThat(upper.test(5)).isFalse();
        VidPredicate.Between reversed = VidPredicate.range(-1, 0);
        assertThat(reversed.isEmpty()).isTrue();
        assertThat(reversed.test(0)).isFalse();
        assertThat(reversed.test(-1)).isFalse();
        assertThat(VidPredicate.range(7, 7).test(7)).isTrue();
        assertThat(VidPredicate.range(7, 7).test(8)).isFalse();
        assertThat(VidPredicate.range(3, -1)).hasToString("vid in [3..4294967295]");
    }

    /** Holds a 512 MiB bitmap for a moment: the price of vid 2^32-1. */
    @Test
    void setsAreDistinctUnsignedAndSorted() {
        VidPredicate.VidSet set = VidPredicate.in(9, -1, 3, 9, 0);
        assertThat(set.size()).isEqualTo(4);
        assertThat(set.vids()).containsExactly(0, 3, 9, -1);
        assertThat(set.test(-1)).isTrue();
        assertThat(set.test(9)).isTrue();
        assertThat(set.test(4)).isFalse();
        assertThat(set.test(-2)).isFalse();
        assertThat(set.countAtMost(8)).isEqualTo(2);
        assertThat(set.countAtMost(9)).isEqualTo(3);
        assertThat(set.countAtMost(-1)).isEqualTo(4);
        assertThat(set).hasToString("VidSet[0, 3, 9, 4294967295]");
        assertThat(VidPredicate.in(3, 1, 3)).isEqualTo(VidPredicate.in(1, 3)).hasSameHashCodeAs(VidPredicate.in(1, 3))
                .isNotEqualTo(VidPredicate.in(1, 4));
    }

    /** A bitmap a dictionary test filled is the set of its bits, the same as the set of those vids listed. */
    @Test
    void aBitmapIsTheSetOfItsBits() {
        SplittableRandom random = new SplittableRandom(5);
        int[] bitmap = new int[300];
        for (int w = 0; w < 290; w++) { // the last words empty: the set ends at its largest vid
            bitmap[w] = random.nextInt(4) == 0 ? 0 : random.nextInt();
        }
        int[] vids = IntStream.range(0, 300 * 32).filter(v -> (bitmap[v >>> 5] >>> v & 1) != 0).toArray();
        VidPredicate.VidSet set = VidPredicate.VidSet.ofBitmap(bitmap.clone());
        assertThat(set).isEqualTo(VidPredicate.in(vids));
        assertThat(set.vids()).containsExactly(vids);
        for (int v = 0; v < 300 * 32 + 40; v++) {
            assertThat(set.test(v)).isEqualTo(VidPredicate.in(vids).test(v));
        }
        assertThat(VidPredicate.VidSet.ofBitmap(new int[4]).isEmpty()).isTrue();
    }

    @Test
    void anEmptySetMatchesNothing() {
        VidPredicate.VidSet empty = VidPredicate.in();
        assertThat(empty.isEmpty()).isTrue();
        assertThat(empty.test(0)).isFalse();
        assertThat(empty.countAtMost(-1)).isZero();
        assertThatThrownBy(() -> VidPredicate.in((int[]) null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void aDictionaryRangeBecomesAnInclusiveBetween() {
        assertThat(VidPredicate.of(new VidRange(3, 7))).isEqualTo(VidPredicate.range(3, 6));
        assertThat(VidPredicate.of(VidRange.EMPTY).isEmpty()).isTrue();
    }
}
