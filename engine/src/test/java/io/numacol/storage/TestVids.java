package io.numacol.storage;

import java.util.Random;

/** Seeded vid columns for tests: a third small vids, a third extremes (0 and the bitcase's max), a third uniform. */
public final class TestVids {
    private TestVids() {
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
