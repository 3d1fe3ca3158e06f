package io.numacol.exec;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * SQL LIKE as a thread-safe string test: {@code %} matches any run of characters, {@code _} any
 * one, the escape character makes the next one literal. A pattern of literal runs between
 * {@code %}s is matched with {@link String#startsWith}, {@link String#indexOf} and
 * {@link String#endsWith}; one with {@code _} becomes a regular expression.
 */
public final class LikePattern {
    private LikePattern() {
    }

    /**
     * The test of {@code pattern} on a value's UTF-8 bytes, or null when it has a {@code _} (one
     * character is one to four bytes) or an unpaired surrogate (no UTF-8 form). A run of literal
     * characters occurs in a value where its UTF-8 bytes occur in the value's: a UTF-8 sequence's
     * first byte is never another's continuation byte, so a match of bytes starts and ends on
     * characters. A dictionary's values are tested on their bytes, copied out of its segment,
     * without decoding each to a String: a column of distinct comments has as many
     * values as rows, and decoding each would cost more than the test.
     */
    public static Utf8Like utf8(String pattern, String escape) {
        Parsed parsed = parse(pattern, escape);
        if (parsed.hasSingle()) {
            return null;
        }
        List<String> runs = parsed.runs();
        byte[][] encoded = new byte[runs.size()][];
        for (int i = 0; i < encoded.length; i++) {
            String run = runs.get(i);
            if (run.codePoints().anyMatch(c -> c >= Character.MIN_SURROGATE && c <= Character.MAX_SURROGATE)) {
                return null; // unpaired
            }
            encoded[i] = run.getBytes(StandardCharsets.UTF_8);
        }
        return new Utf8Like(encoded);
    }

    /** A pattern's literal runs, and the wildcard ({@code %} or {@code _}) after each but the last. */
    private record Parsed(List<String> runs, String wildcards) {
        boolean hasSingle() {
            return wildcards.indexOf('_') >= 0;
        }
    }

    private static Parsed parse(String pattern, String escape) {
        if (escape != null && escape.length() != 1) {
            throw new IllegalArgumentException("a LIKE escape must be one character, got '" + escape + "'");
        }
        List<String> runs = new ArrayList<>();
        StringBuilder wildcards = new StringBuilder();
        StringBuilder run = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char ch = pattern.charAt(i);
            if (escape != null && ch == escape.charAt(0)) {
                if (++i == pattern.length()) {
                    throw new IllegalArgumentException("a LIKE pattern may not end with its escape character: '" + pattern + "'");
                }
                run.append(pattern.charAt(i));
            } else if (ch == '%' || ch == '_') {
                runs.add(run.toString());
                wildcards.append(ch);
                run.setLength(0);
            } else {
                run.append(ch);
            }
        }
        runs.add(run.toString());
        return new Parsed(runs, wildcards.toString());
    }

    /**
     * A LIKE of literal runs between {@code %}s on UTF-8 bytes: the first run starts the value,
     * the last ends it, the others occur in order between, none overlapping. Thread-safe.
     */
    public static final class Utf8Like {
        private final byte[][] runs;
        /**
         * The runs' bytes as Latin-1 Strings, a char per byte: the middle runs are searched in
         * such a view of the value, with String.indexOf's vectorized search, which a loop over
         * the bytes, or a compare per candidate position, does not match.
         */
        private final String[] latin1;

        private Utf8Like(byte[][] runs) {
            this.runs = runs;
            this.latin1 = Arrays.stream(runs).map(r -> new String(r, StandardCharsets.ISO_8859_1)).toArray(String[]::new);
        }

        /** Whether {@code value[0..length)} matches. */
        public boolean test(byte[] value, int length) {
            boolean[] matches = new boolean[1];
            test(value, new String(value, 0, length, StandardCharsets.ISO_8859_1), new int[] {0, length}, 1, matches);
            return matches[0];
        }

        /**
         * Tests {@code count} values held back to back in {@code bytes} (value i at {@code
         * [starts[i], starts[i + 1])}), {@code view} being those bytes as a Latin-1 String, and
         * sets {@code matches[i]}. The first middle run is searched for across the values, not in
         * each: its next occurrence, once found, rejects every value before it with one
         * comparison, so a rare run ({@code '%special%requests%'}) costs about one pass of
         * String.indexOf over the bytes, and no value is copied into a String of its own.
         */
        public void test(byte[] bytes, String view, int[] starts, int count, boolean[] matches) {
            byte[] first = runs[0];
            byte[] last = runs[runs.length - 1];
            int next = -1; // where the first middle run occurs next, at or after the last value's start
            for (int i = 0; i < count; i++) {
                int start = starts[i];
                int length = starts[i + 1] - start;
                if (runs.length == 1) {
                    matches[i] = Arrays.equals(bytes, start, start + length, first, 0, first.length);
                    continue;
                }
                int end = start + length - last.length;
                if (end < start + first.length
                        || (first.length > 0 && !Arrays.equals(bytes, start, start + first.length, first, 0, first.length))
                        || (last.length > 0 && !Arrays.equals(bytes, end, end + last.length, last, 0, last.length))) {
                    matches[i] = false;
                    continue;
                }
                int from = start + first.length;
                if (runs.length > 2) {
                    if (next < from) {
                        next = view.indexOf(latin1[1], from);
                        if (next < 0) {
                            next = Integer.MAX_VALUE - runs[1].length; // in no value left
                        }
                    }
                    if (next + runs[1].length > end) {
                        matches[i] = false; // its first occurrence is past this value's middle
                        continue;
                    }
                    from = next + runs[1].length;
                }
                boolean matched = true;
                for (int r = 2; r < runs.length - 1 && matched; r++) {
                    int at = view.indexOf(latin1[r], from, end);
                    matched = at >= 0;
                    from = at + runs[r].length;
                }
                matches[i] = matched;
            }
        }
    }

    /** The test of {@code pattern} with escape character {@code escape} (null: none). */
    public static Predicate<String> compile(String pattern, String escape) {
        Parsed parsed = parse(pattern, escape);
        List<String> runs = parsed.runs();
        if (parsed.hasSingle()) {
            StringBuilder regex = new StringBuilder();
            for (int i = 0; i < parsed.wildcards().length(); i++) {
                regex.append(Pattern.quote(runs.get(i))).append(parsed.wildcards().charAt(i) == '%' ? ".*" : ".");
            }
            regex.append(Pattern.quote(runs.getLast()));
            Pattern p = Pattern.compile(regex.toString(), Pattern.DOTALL);
            return s -> p.matcher(s).matches();
        }
        String[] parts = runs.toArray(String[]::new);
        if (parts.length == 1) {
            String exact = parts[0];
            return exact::equals;
        }
        String first = parts[0];
        String last = parts[parts.length - 1];
        return s -> {
            if (s.length() < first.length() + last.length() || !s.startsWith(first) || !s.endsWith(last)) {
                return false;
            }
            int from = first.length();
            int end = s.length() - last.length();
            for (int i = 1; i < parts.length - 1; i++) {
                int at = s.indexOf(parts[i], from);
                if (at < 0 || at + parts[i].length() > end) {
                    return false;
                }
                from = at + parts[i].length();
            }
            return true;
        };
    }
}
