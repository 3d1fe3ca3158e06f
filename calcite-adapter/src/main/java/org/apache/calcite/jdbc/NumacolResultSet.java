package org.apache.calcite.jdbc;

import io.numacol.scheduler.StatementFailedException;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.TimeZone;

/**
 * Calcite's result set, except that a failure while computing rows (division by zero, a
 * canceled scan) reaches the caller as an SQLException, as JDBC promises, instead of the bare
 * RuntimeException Avatica lets through from {@code next()}; and a constant that fails to
 * evaluate inside generated code (an ExceptionInInitializerError) as well. In Calcite's package
 * only because CalciteResultSet's constructor is package-private; see {@link NumacolMetaBase}.
 */
public final class NumacolResultSet extends CalciteResultSet {

    public NumacolResultSet(AvaticaStatement statement, CalcitePrepare.CalciteSignature<?> signature,
                            ResultSetMetaData metaData, TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
        super(statement, signature, metaData, timeZone, firstFrame);
    }

    @Override
    protected CalciteResultSet execute() throws SQLException {
        try {
            return super.execute();
        } catch (ExceptionInInitializerError e) {
            throw failed(e);
        } catch (OutOfMemoryError e) {
            throw outOfHeap(e);
        }
    }

    @Override
    public boolean next() throws SQLException {
        try {
            return super.next();
        } catch (RuntimeException | ExceptionInInitializerError e) {
            throw failed(e);
        } catch (OutOfMemoryError e) {
            throw outOfHeap(e);
        }
    }

    /**
     * The Java heap ran out while Calcite's row operators held this statement's rows (a join
     * numacol does not run, building a product on the heap, outside numacol's memory limit).
     * Only this statement's objects were being made, and they are garbage once it unwinds, so
     * the statement fails and the database goes on; other OutOfMemoryErrors (metaspace, threads)
     * are the JVM's and pass.
     */
    private static SQLException outOfHeap(OutOfMemoryError e) {
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
                        + "(the database was closed while the query ran)", cause);
            }
        }
        return new SQLException("query failed: " + cause.getMessage(), cause);
    }
}
