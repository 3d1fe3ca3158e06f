package org.apache.calcite.jdbc;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.NoSuchStatementException;

/**
 * In a Calcite package because CalciteMetaImpl's constructors take Calcite's package-private
 * connection class, so a subclass outside this package cannot call them. This one does, and
 * {@code io.numacol.jdbc.NumacolMeta} extends it. (Calcite's jar is not sealed and numacol runs
 * on the class path; revisit if numacol ever becomes a named module. {@link NumacolResultSet}
 * and {@link NumacolPreparedStatement} are here for the same reason.)
 */
public abstract class NumacolMetaBase extends CalciteMetaImpl {
    @SuppressWarnings("deprecation") // CalciteMetaImpl's public factory makes its own instance: issue 13 replaces this class
    protected NumacolMetaBase(AvaticaConnection connection) {
        super((CalciteConnectionImpl) connection);
    }

    /** The signature a prepared statement was given (its handle carries none on this path). */
    protected Meta.Signature signatureOf(Meta.StatementHandle h) throws NoSuchStatementException {
        return ((CalciteConnectionImpl) connection).server.getStatement(h).getSignature();
    }

    /**
     * A batch that failed: the message names the entry and the cause, and {@link #updateCounts}
     * are what {@link java.sql.BatchUpdateException#getUpdateCounts()} reports.
     * {@link NumacolPreparedStatement} turns it into that exception.
     */
    public static final class BatchFailedException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final long[] updateCounts;

        public BatchFailedException(String message, long[] updateCounts, Throwable cause) {
            super(message, cause);
            this.updateCounts = updateCounts.clone();
        }

        public long[] updateCounts() {
            return updateCounts.clone();
        }
    }
}
