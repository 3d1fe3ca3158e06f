package io.numacol.storage;

/**
 * Where a merge put the rows of one of the parts it merged ({@link Table#tryMergeParts}): a merged
 * part holds the live rows of its sources in order, so the rows of source {@code source} that
 * were live at the merge ({@code deletedAtMerge} clear) are rows {@code offset}, {@code offset +
 * 1}, ... of part {@code merged}. A transaction whose snapshot is older than the merge deleted rows
 * by the source's positions; its commit finds them here.
 *
 * @param since          the commit timestamp of the merge
 * @param merged         the merged part's id, -1 when every row was deleted (no part was made)
 * @param mergedRows     the merged part's rows
 * @param deletedAtMerge the source's rows deleted when it was merged (not carried over)
 * @param offset         the merged part's position of the source's first live row
 */
record MergeForward(long since, long merged, int mergedRows, DeletedRows deletedAtMerge, int offset) {

    /**
     * The positions in the merged part of the source's rows set in {@code rows} (a bitmap over the
     * source's positions), as a bitmap over the merged part's; null when one of them was deleted
     * before the merge (it is not there: a write conflict).
     */
    long[] translate(long[] rows) {
        long[] out = new long[(mergedRows + 63) >>> 6];
        int deletedBefore = 0; // the source's rows deleted before word w, counted a word at a time
        for (int w = 0; w < rows.length; w++) {
            long word = rows[w];
            long deletedWord = deletedAtMerge.word(w);
            while (word != 0) {
                int bit = Long.numberOfTrailingZeros(word);
                word &= word - 1;
                if (merged < 0 || (deletedWord >>> bit & 1) != 0) {
                    return null;
                }
                int at = offset + (w << 6 | bit) - deletedBefore - Long.bitCount(deletedWord & ((1L << bit) - 1));
                out[at >>> 6] |= 1L << at;
            }
            deletedBefore += Long.bitCount(deletedWord);
        }
        return out;
    }
}
