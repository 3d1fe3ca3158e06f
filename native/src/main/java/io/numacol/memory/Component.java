package io.numacol.memory;

import java.util.Locale;

/** What a block of numacol's memory holds; accounting and {@code sys} tables report per component. */
public enum Component {
    DICTIONARY,
    INDEX_VECTOR,
    INDEX,
    /** A hash join's build side while its statement runs: intermediate, not table data. */
    HASH_TABLE,
    OTHER;

    /** What a memory limit's message calls a block of this component. */
    String describe() {
        return this == HASH_TABLE ? "a hash join's table" : "table data (" + name().toLowerCase(Locale.ROOT).replace('_', ' ') + ")";
    }
}
