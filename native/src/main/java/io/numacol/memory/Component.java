package io.numacol.memory;

/** What a block of column memory holds; accounting and {@code sys} tables report per component. */
public enum Component {
    DICTIONARY,
    INDEX_VECTOR,
    INDEX,
    OTHER
}
