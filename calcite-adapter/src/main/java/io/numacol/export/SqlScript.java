package io.numacol.export;

import java.util.ArrayList;
import java.util.List;

/**
 * The statements of an SQL script: split at each semicolon outside a 'string', a "quoted
 * identifier" and a comment ({@code --} to the end of the line, {@code /* *}{@code /}), blank
 * ones dropped. A view's query may hold any of those, so a split at every semicolon or line would
 * cut it.
 */
final class SqlScript {
    private SqlScript() {
    }

    static List<String> statements(String script) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int i = 0;
        while (i < script.length()) {
            char c = script.charAt(i);
            if (c == '\'' || c == '"') {
                int end = i + 1;
                while (end < script.length()) {
                    if (script.charAt(end) == c) {
                        if (end + 1 < script.length() && script.charAt(end + 1) == c) {
                            end += 2; // a doubled quote stands for itself
                            continue;
                        }
                        break;
                    }
                    end++;
                }
                end = Math.min(end + 1, script.length());
                current.append(script, i, end);
                i = end;
            } else if (c == '-' && i + 1 < script.length() && script.charAt(i + 1) == '-') {
                int end = script.indexOf('\n', i);
                i = end < 0 ? script.length() : end;
            } else if (c == '/' && i + 1 < script.length() && script.charAt(i + 1) == '*') {
                int end = script.indexOf("*/", i + 2);
                i = end < 0 ? script.length() : end + 2;
                current.append(' ');
            } else if (c == ';') {
                add(out, current);
                i++;
            } else {
                current.append(c);
                i++;
            }
        }
        add(out, current);
        return out;
    }

    private static void add(List<String> out, StringBuilder statement) {
        String s = statement.toString().strip();
        if (!s.isEmpty()) {
            out.add(s);
        }
        statement.setLength(0);
    }
}
