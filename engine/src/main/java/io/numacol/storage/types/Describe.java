package io.numacol.storage.types;

/** How error messages show a value: strings quoted and cut short, so a huge value cannot flood a log. */
public final class Describe {
    private static final int MAX_SHOWN_CODE_POINTS = 40;

    private Describe() {
    }

    public static String value(Object value) {
        if (value instanceof String s) {
            if (s.codePointCount(0, s.length()) <= MAX_SHOWN_CODE_POINTS) {
                return "'" + s + "'";
            }
            return "'" + s.substring(0, s.offsetByCodePoints(0, MAX_SHOWN_CODE_POINTS)) + "...'";
        }
        if (value instanceof byte[] bytes) {
            // as a binary literal, X'0102ff'
            int shown = Math.min(bytes.length, MAX_SHOWN_CODE_POINTS / 2);
            return "X'" + java.util.HexFormat.of().formatHex(bytes, 0, shown) + (shown < bytes.length ? "...'" : "'");
        }
        return String.valueOf(value);
    }
}
