package io.numacol.jdbc;

import io.numacol.scheduler.StatementFailedException;

import java.sql.SQLException;
import java.util.Iterator;

/**
 * How a failure while a query's rows are computed (a division by zero, a canceled scan, a
 * constant that fails inside generated code) reaches the caller: as the SQLException JDBC
 * promises from {@code ResultSet.next()}, instead of the bare RuntimeException Avatica lets
 * through. The rows Calcite's Meta makes are wrapped ({@link #reported}); the SQLException is
 * thrown through the iterator undeclared ({@link #sneaky}), and every JDBC method it leaves by
 * declares it.
 */
final class QueryFailures {
    private QueryFailures() {
    }

    /** {@code rows}, whose iterator reports a failure as an SQLException (per row: no lambda per call). */
    static Iterable<Object> reported(Iterable<Object> rows) {
        return () -> {
            Iterator<Object> iterator;
            try {
                iterator = rows.iterator();
            } catch (RuntimeException | Error e) {
                throw asSqlException(e);
            }
            return new Reported(iterator);
        };
    }

    /** Rows whose failures are SQLExceptions; closing them closes what they wrap (Calcite's enumerator, a statement's view). */
    private static final class Reported implements Iterator<Object>, AutoCloseable {
        private final Iterator<Object> iterator;

        Reported(Iterator<Object> iterator) {
            this.iterator = iterator;
        }

        @Override
        public boolean hasNext() {
            try {
                return iterator.hasNext();
            } catch (RuntimeException | Error e) {
                throw asSqlException(e);
            }
        }

        @Override
        public Object next() {
            try {
                return iterator.next();
            } catch (RuntimeException | Error e) {
                throw asSqlException(e);
            }
        }

        @Override
        public void close() {
            if (iterator instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (RuntimeException | Error e) {
                    throw asSqlException(e);
                } catch (Exception e) {
                    throw sneaky(e);
                }
            }
        }
    }

    /**
     * {@code e}, which computing rows threw, as the SQLException to throw instead (thrown from
     * here): VirtualMachineErrors other than a stack overflow and the heap running out pass as
     * they are, where {@link SqlStates} draws the line.
     */
    private static RuntimeException asSqlException(Throwable e) {
        if (e instanceof OutOfMemoryError oom) {
            throw sneaky(outOfHeap(oom));
        }
        if (e instanceof VirtualMachineError error && !(e instanceof StackOverflowError)) {
            throw error; // the JVM's, not the statement's (see SqlStates)
        }
        throw sneaky(failed(e));
    }

    /**
     * The Java heap ran out while Calcite's row operators held this statement's rows (a join
     * numacol does not run, building a product on the heap, outside numacol's memory limit).
     * Only this statement's objects were being made, and they are garbage once it unwinds, so
     * the statement fails and the database goes on; other OutOfMemoryErrors (metaspace, threads)
     * are the JVM's and pass.
     */
    static SQLException outOfHeap(OutOfMemoryError e) {
        if (!"Java heap space".equals(e.getMessage())) {
            throw e;
        }
        return new SQLException("query failed: the Java heap (" + Runtime.getRuntime().maxMemory() / (1 << 20)
                + " MiB) ran out while Calcite's row operators ran part of it; rewrite the query so that "
                + "its joins have equality keys, or give the JVM more heap", "53200", e);
    }

    static SQLException failed(Throwable e) {
        Throwable cause = e instanceof ExceptionInInitializerError && e.getCause() != null ? e.getCause() : e;
        // What a task threw says what went wrong; "statement 12 failed: java.lang.X: " before it does not.
        while (cause instanceof StatementFailedException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        for (Throwable t = cause; t != null; t = t.getCause()) {
            // FFM's word for a read of memory whose arena closed: say what happened instead
            if (t instanceof IllegalStateException && "Already closed".equals(t.getMessage())) {
                return new SQLException("query failed: the memory it was reading has been freed "
                        + "(the database was closed while the query ran)", "08003", cause);
            }
        }
        String state = SqlStates.state(cause);
        String message = cause.getMessage() != null ? cause.getMessage()
                : cause instanceof StackOverflowError ? "its expressions nest too deeply (a stack overflow)" : cause.getClass().getSimpleName();
        return SqlStates.create("query failed: " + message, state, cause);
    }

    /**
     * Throws {@code t} from a method that cannot declare it (Meta's and Iterator's): the JDBC
     * method the caller called declares SQLException.
     */
    @SuppressWarnings({"unchecked", "TypeParameterUnusedInFormals"}) // the sneaky throw: E is inferred unchecked
    static <E extends Throwable> E sneaky(Throwable t) throws E {
        throw (E) t;
    }
}
