package io.numacol.exec;

/** The SQL aggregates numacol's operators compute. */
public enum AggregateKind {
    COUNT_STAR,
    COUNT,
    /** NULL over no values. */
    SUM,
    /** 0 over no values. */
    SUM0,
    MIN,
    MAX;

    /** Whether this is a SUM, of either kind. */
    public boolean sums() {
        return this == SUM || this == SUM0;
    }
}
