package io.numacol.storage.types;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * UTF-8 as numacol stores strings. Byte order of UTF-8 is Unicode code point order, which differs
 * from {@link String#compareTo} (UTF-16 code units) where a supplementary character (encoded as
 * surrogates D800-DFFF) meets a character in E000-FFFF: code point order puts the supplementary
 * character last.
 */
public final class Utf8 {
    private Utf8() {
    }

    /** The UTF-8 bytes of {@code s}; an unpaired surrogate has none, so it is rejected rather than replaced by '?'. */
    public static byte[] encode(String s) {
        checkWellFormed(s);
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Rejects a string with an unpaired surrogate, which has no UTF-8 form and so cannot be stored. */
    public static void checkWellFormed(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(Describe.value(s) + " has an unpaired surrogate U+"
                        + Integer.toHexString(c).toUpperCase(Locale.ROOT) + " at index " + i
                        + ": it is not valid Unicode and has no UTF-8 encoding");
            }
        }
    }

    /** Compares in code point order (= UTF-8 byte order) without encoding. */
    public static int compare(String a, String b) {
        int n = Math.min(a.length(), b.length());
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                return Integer.compare(codePointOrder(x), codePointOrder(y));
            }
        }
        return Integer.compare(a.length(), b.length());
    }

    /**
     * Lifts surrogates above E000-FFFF and moves E000-FFFF down into their place: the first
     * differing UTF-16 units then compare as the code points they belong to would.
     */
    private static int codePointOrder(char c) {
        if (c < Character.MIN_SURROGATE) {
            return c;
        }
        return Character.isSurrogate(c) ? c + 0x2000 : c - 0x800;
    }
}
