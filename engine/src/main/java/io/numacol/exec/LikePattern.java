package io.numacol.exec;

import java.util.ArrayList;
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

    /** The test of {@code pattern} with escape character {@code escape} (null: none). */
    public static Predicate<String> compile(String pattern, String escape) {
        if (escape != null && escape.length() != 1) {
            throw new IllegalArgumentException("a LIKE escape must be one character, got '" + escape + "'");
        }
        List<String> runs = new ArrayList<>();
        StringBuilder run = new StringBuilder();
        StringBuilder regex = new StringBuilder();
        boolean single = false;
        for (int i = 0; i < pattern.length(); i++) {
            char ch = pattern.charAt(i);
            if (escape != null && ch == escape.charAt(0)) {
                if (++i == pattern.length()) {
                    throw new IllegalArgumentException("a LIKE pattern may not end with its escape character: '" + pattern + "'");
                }
                run.append(pattern.charAt(i));
            } else if (ch == '%' || ch == '_') {
                regex.append(Pattern.quote(run.toString())).append(ch == '%' ? ".*" : ".");
                runs.add(run.toString());
                run.setLength(0);
                single |= ch == '_';
            } else {
                run.append(ch);
            }
        }
        regex.append(Pattern.quote(run.toString()));
        runs.add(run.toString());
        if (single) {
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
