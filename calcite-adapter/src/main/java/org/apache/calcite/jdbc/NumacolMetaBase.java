package org.apache.calcite.jdbc;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.NoSuchStatementException;

/**
 * numacol's only class in a Calcite package: CalciteMetaImpl's constructors take Calcite's
 * package-private connection class, so a subclass outside this package cannot call them. This
 * one does, and {@code io.numacol.jdbc.NumacolMeta} extends it. (Calcite's jar is not sealed and
 * numacol runs on the class path; revisit if numacol ever becomes a named module.)
 */
public abstract class NumacolMetaBase extends CalciteMetaImpl {
    protected NumacolMetaBase(AvaticaConnection connection) {
        super((CalciteConnectionImpl) connection);
    }

    /** The signature a prepared statement was given (its handle carries none on this path). */
    protected Meta.Signature signatureOf(Meta.StatementHandle h) throws NoSuchStatementException {
        return ((CalciteConnectionImpl) connection).server.getStatement(h).getSignature();
    }
}
