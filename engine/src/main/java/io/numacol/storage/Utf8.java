package io.numacol.storage;

import java.nio.charset.StandardCharsets;

/** UTF-8 as numacol stores strings. */
final class Utf8 {
    private Utf8() {
    }

    /** The UTF-8 bytes of {@code s}; an unpaired surrogate has none, so it is rejected rather than replaced by '?'. */
    static byte[] encode(String s) {
        checkWellFormed(s);
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static void checkWellFormed(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(Describe.value(s) + " has an unpaired surrogate U+"
                        + Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT) + " at index " + i
                        + ": it is not valid Unicode and has no UTF-8 encoding");
            }
        }
    }
}
