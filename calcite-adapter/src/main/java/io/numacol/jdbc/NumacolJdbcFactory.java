package io.numacol.jdbc;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.jdbc.CalciteJdbc41Factory;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.CalciteResultSet;
import org.apache.calcite.jdbc.NumacolPreparedStatement;
import org.apache.calcite.jdbc.NumacolResultSet;

import java.sql.SQLException;
import java.util.TimeZone;

/**
 * Calcite's JDBC object factory, making result sets that report failures while fetching as
 * SQLExceptions and prepared statements whose failed batches throw BatchUpdateException.
 */
public final class NumacolJdbcFactory extends CalciteJdbc41Factory {

    @Override
    public AvaticaPreparedStatement newPreparedStatement(AvaticaConnection connection, Meta.StatementHandle h,
                                                         Meta.Signature signature, int resultSetType,
                                                         int resultSetConcurrency, int resultSetHoldability) throws SQLException {
        return NumacolPreparedStatement.create(connection, h, signature, resultSetType, resultSetConcurrency,
                resultSetHoldability);
    }

    @Override
    public CalciteResultSet newResultSet(AvaticaStatement statement, QueryState state, Meta.Signature signature,
                                         TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
        return new NumacolResultSet(statement, (CalcitePrepare.CalciteSignature<?>) signature,
                newResultSetMetaData(statement, signature), timeZone, firstFrame);
    }
}
