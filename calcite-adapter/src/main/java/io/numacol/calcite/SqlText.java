package io.numacol.calcite;

/**
 * Scanning SQL as text, for the few rewrites numacol makes before Calcite's parser reads a
 * statement (ON CONFLICT taken apart, a FROM-less SELECT given a row): where a quoted string or
 * name ends, so that what is inside it is never read as SQL.
 */
public final class SqlText {
    private SqlText() {
    }

    /**
     * The index after the quote that closes the one at {@code start} ({@code '} of a string or
     * {@code "} of a name; a doubled quote is one inside), or the text's end when none does.
     */
    public static int afterQuoted(String sql, int start) {
        char quote = sql.charAt(start);
        int i = start + 1;
        while (i < sql.length()) {
            if (sql.charAt(i) == quote) {
                if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return sql.length();
    }
}
