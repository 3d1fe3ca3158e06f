package io.numacol.storage;

/**
 * SQL's character functions over strings counted in characters, that is Unicode code points, as
 * in PostgreSQL and DuckDB: a Java String counts UTF-16 units, in which a character outside the
 * Basic Multilingual Plane (an emoji, a rare CJK ideograph) is two, so {@code char_length('😀')}
 * was 2 and a SUBSTRING could cut such a character in half. Positions are 1-based, as in SQL.
 */
public final class CodePoints {
    private CodePoints() {
    }

    /** CHAR_LENGTH: the characters of {@code s}. */
    public static int length(String s) {
        return s.codePointCount(0, s.length());
    }

    /**
     * SUBSTRING(s FROM start FOR length): the characters at positions {@code start} to {@code
     * start + length - 1} that exist; {@code length} at least 0.
     */
    public static String substring(String s, long start, long length) {
        if (length < 0) {
            throw new IllegalArgumentException("substring error: the length " + length + " is negative");
        }
        long end = start + length; // exclusive; start + length cannot overflow for the ints SQL gives
        int count = length(s);
        if (start > count || end <= 1) {
            return "";
        }
        int from = s.offsetByCodePoints(0, (int) Math.max(start, 1) - 1);
        int to = end > count ? s.length() : s.offsetByCodePoints(from, (int) (end - Math.max(start, 1)));
        return s.substring(from, to);
    }

    /** SUBSTRING(s FROM start): the characters from position {@code start} on. */
    public static String substring(String s, long start) {
        int count = length(s);
        if (start > count) {
            return "";
        }
        return s.substring(s.offsetByCodePoints(0, (int) Math.max(start, 1) - 1));
    }

    /**
     * POSITION(sub IN s FROM from): the position of the first {@code sub} in {@code s} at or after
     * position {@code from}, 0 if none.
     */
    public static int position(String sub, String s, long from) {
        int count = length(s);
        if (from > count + 1L) {
            return 0;
        }
        int start = s.offsetByCodePoints(0, (int) Math.max(from, 1) - 1);
        int at = s.indexOf(sub, start);
        return at < 0 ? 0 : s.codePointCount(0, at) + 1;
    }
}
