package org.apache.calcite.jdbc;

import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.Meta;

import java.io.InputStream;
import java.io.Reader;
import java.sql.BatchUpdateException;
import java.sql.NClob;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;

/**
 * Calcite's prepared statement, except that a failed executeBatch throws the
 * {@link BatchUpdateException} JDBC promises, with the update counts the Meta reported, instead
 * of the plain SQLException Avatica makes of every failure. In Calcite's package because the
 * class it extends is package-private (see {@link NumacolMetaBase}); Calcite's own subclass is
 * private, so the JDBC 4 setters it adds are passed to the parameter sites here as well.
 */
public final class NumacolPreparedStatement extends CalcitePreparedStatement {

    private NumacolPreparedStatement(CalciteConnectionImpl connection, Meta.StatementHandle h, Meta.Signature signature,
                                     int resultSetType, int resultSetConcurrency, int resultSetHoldability) throws SQLException {
        super(connection, h, signature, resultSetType, resultSetConcurrency, resultSetHoldability);
    }

    public static AvaticaPreparedStatement create(AvaticaConnection connection, Meta.StatementHandle h,
                                                  Meta.Signature signature, int resultSetType, int resultSetConcurrency,
                                                  int resultSetHoldability) throws SQLException {
        return new NumacolPreparedStatement((CalciteConnectionImpl) connection, h, signature, resultSetType,
                resultSetConcurrency, resultSetHoldability);
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        try {
            return super.executeLargeBatch();
        } catch (SQLException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof NumacolMetaBase.BatchFailedException failed) {
                    // The entry's own error is the cause worth showing, not Avatica's wrapper around ours.
                    Throwable cause = failed.getCause() != null ? failed.getCause() : failed;
                    throw new BatchUpdateException(failed.getMessage(), e.getSQLState(), e.getErrorCode(),
                            failed.updateCounts(), cause);
                }
            }
            throw e;
        }
    }

    @Override
    public void setRowId(int parameterIndex, RowId x) throws SQLException {
        getSite(parameterIndex).setRowId(x);
    }

    @Override
    public void setNString(int parameterIndex, String value) throws SQLException {
        getSite(parameterIndex).setNString(value);
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value, long length) throws SQLException {
        getSite(parameterIndex).setNCharacterStream(value, length);
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value) throws SQLException {
        getSite(parameterIndex).setNCharacterStream(value);
    }

    @Override
    public void setNClob(int parameterIndex, NClob value) throws SQLException {
        getSite(parameterIndex).setNClob(value);
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader, long length) throws SQLException {
        getSite(parameterIndex).setNClob(reader, length);
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader) throws SQLException {
        getSite(parameterIndex).setNClob(reader);
    }

    @Override
    public void setClob(int parameterIndex, Reader reader, long length) throws SQLException {
        getSite(parameterIndex).setClob(reader, length);
    }

    @Override
    public void setClob(int parameterIndex, Reader reader) throws SQLException {
        getSite(parameterIndex).setClob(reader);
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream, long length) throws SQLException {
        getSite(parameterIndex).setBlob(inputStream, length);
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream) throws SQLException {
        getSite(parameterIndex).setBlob(inputStream);
    }

    @Override
    public void setSQLXML(int parameterIndex, SQLXML xmlObject) throws SQLException {
        getSite(parameterIndex).setSQLXML(xmlObject);
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, long length) throws SQLException {
        getSite(parameterIndex).setAsciiStream(x, length);
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x) throws SQLException {
        getSite(parameterIndex).setAsciiStream(x);
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, long length) throws SQLException {
        getSite(parameterIndex).setBinaryStream(x, length);
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x) throws SQLException {
        getSite(parameterIndex).setBinaryStream(x);
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, long length) throws SQLException {
        getSite(parameterIndex).setCharacterStream(reader, length);
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader) throws SQLException {
        getSite(parameterIndex).setCharacterStream(reader);
    }
}
