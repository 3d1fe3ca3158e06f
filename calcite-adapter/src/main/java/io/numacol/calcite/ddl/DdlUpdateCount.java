package io.numacol.calcite.ddl;

/**
 * The scope in which numacol DDL runs, and the carrier of its update count (the rows COPY or
 * CALL dbgen loaded) to the JDBC layer. Calcite executes DDL while it prepares a statement and
 * answers 0 for every DDL; the driver binds a slot around its executions (Statement.execute,
 * batches) and reports what lands in it. Outside such a scope, in Connection.prepareStatement,
 * DDL is only parsed: the prepared statement runs it when executed.
 */
public final class DdlUpdateCount {
    private static final ScopedValue<long[]> SLOT = ScopedValue.newInstance();

    private DdlUpdateCount() {
    }

    /**
     * Runs {@code op}; numacol DDL executed inside it, in this thread, writes its update count to
     * {@code slot[0]} (which the caller sets to -1 beforehand to tell "no DDL ran").
     */
    public static <R, X extends Throwable> R capture(long[] slot, ScopedValue.CallableOp<R, X> op) throws X {
        return ScopedValue.where(SLOT, slot).call(op);
    }

    /** Whether DDL met now is being executed, not merely prepared. */
    static boolean executing() {
        return SLOT.isBound();
    }

    static void report(long count) {
        if (SLOT.isBound()) {
            SLOT.get()[0] = count;
        }
    }
}
