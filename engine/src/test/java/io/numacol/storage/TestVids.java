package io.numacol.storage;

import org.junit.jupiter.params.provider.Arguments;

import java.util.Arrays;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/** Seeded vid columns for tests: a third small vids, a third extremes (0 and the bitcase's max), a third uniform. */
public final class TestVids {
    /** Empty, single, one short of a block, a block, just past one, several. */
    @SuppressWarnings("MutablePublicArray") // read by parameterized tests' sources
    public static final int[] LENGTHS = {0, 1, 31, 1023, 1024, 1025, 3001};

    private TestVids() {
    }

    /** Every bitcase 1..32 with every one of {@link #LENGTHS}. */
    public static Stream<Arguments> bitcasesAndLengths() {
        return IntStream.rangeClosed(1, 32).boxed()
                .flatMap(b -> Arrays.stream(LENGTHS).mapToObj(n -> Arguments.of(b, n)));
    }

    public static int[] random(Random random, int length, int bitcase) {
        int max = IndexVector.maxVid(bitcase);
        int small = (int) Math.min(Integer.toUnsignedLong(max) + 1, 64);
        int[] vids = new int[length];
        for (int i = 0; i < length; i++) {
            vids[i] = switch (random.nextInt(3)) {
                case 0 -> random.nextInt(small);
                case 1 -> random.nextBoolean() ? 0 : max;
                default -> random.nextInt() >>> (Integer.SIZE - bitcase);
            };
        }
        return vids;
    }
}
