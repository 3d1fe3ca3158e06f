package io.numacol.calcite.ddl;

/**
 * The scope in which numacol DDL runs, and what it reports to the JDBC layer: its update count
 * (the rows COPY or CALL dbgen loaded) and the schema SET SCHEMA moved the session to. Calcite
 * executes DDL while it prepares a statement, answers 0 for every DDL and has no connection at
 * hand; the driver binds an outcome around its executions (Statement.execute, batches) and acts
 * on what lands in it. Outside such a scope, in Connection.prepareStatement, DDL is only parsed:
 * the prepared statement runs it when executed.
 */
public final class DdlOutcome {
    private static final ScopedValue<DdlOutcome> SLOT = ScopedValue.newInstance();

    private long count = -1;
    private String schema;

    /** The update count of the DDL that ran, or -1 when none did. */
    public long count() {
        return count;
    }

    /** The schema (as the catalog spells it) the session is to read unqualified names in from now on, or null. */
    public String schema() {
        return schema;
    }

    /** Runs {@code op}; numacol DDL executed inside it, in this thread, reports to {@code outcome}. */
    public static <R, X extends Throwable> R capture(DdlOutcome outcome, ScopedValue.CallableOp<R, X> op) throws X {
        return ScopedValue.where(SLOT, outcome).call(op);
    }

    /** Whether DDL met now is being executed, not merely prepared. */
    static boolean executing() {
        return SLOT.isBound();
    }

    static void report(long count) {
        if (SLOT.isBound()) {
            SLOT.get().count = count;
        }
    }

    static void reportSchema(String schema) {
        if (SLOT.isBound()) {
            SLOT.get().schema = schema;
        }
    }
}
