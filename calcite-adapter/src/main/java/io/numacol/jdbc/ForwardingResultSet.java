package io.numacol.jdbc;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.Map;

/**
 * A result set that passes every call to another, as Guava's {@code Forwarding} classes do: a
 * subclass overrides what it changes. Plain calls rather than a reflective proxy, because a
 * result set's getters are the hot path of reading an answer. Its length is java.sql.ResultSet's:
 * one forwarding method per method of the interface, and one more, {@link #row}, through which
 * the getters of a column's value (and wasNull) reach the delegate.
 */
abstract class ForwardingResultSet implements ResultSet {
    protected final ResultSet delegate;

    protected ForwardingResultSet(ResultSet delegate) {
        this.delegate = delegate;
    }

    /**
     * What the getters of the current row's values and {@code wasNull} read: the delegate. A
     * subclass that knows where its cursor is refuses here, with an SQLException naming {@code
     * method}, a read where there is no current row; one place, not one check per getter.
     */
    protected ResultSet row(String method) throws SQLException {
        return delegate;
    }

    @Override
    public boolean absolute(int row) throws SQLException {
        return delegate.absolute(row);
    }

    @Override
    public void afterLast() throws SQLException {
        delegate.afterLast();
    }

    @Override
    public void beforeFirst() throws SQLException {
        delegate.beforeFirst();
    }

    @Override
    public void cancelRowUpdates() throws SQLException {
        delegate.cancelRowUpdates();
    }

    @Override
    public void clearWarnings() throws SQLException {
        delegate.clearWarnings();
    }

    @Override
    public void close() throws SQLException {
        delegate.close();
    }

    @Override
    public void deleteRow() throws SQLException {
        delegate.deleteRow();
    }

    @Override
    public int findColumn(String columnLabel) throws SQLException {
        return delegate.findColumn(columnLabel);
    }

    @Override
    public boolean first() throws SQLException {
        return delegate.first();
    }

    @Override
    public Array getArray(String columnLabel) throws SQLException {
        return row("getArray").getArray(columnLabel);
    }

    @Override
    public Array getArray(int columnIndex) throws SQLException {
        return row("getArray").getArray(columnIndex);
    }

    @Override
    public InputStream getAsciiStream(String columnLabel) throws SQLException {
        return row("getAsciiStream").getAsciiStream(columnLabel);
    }

    @Override
    public InputStream getAsciiStream(int columnIndex) throws SQLException {
        return row("getAsciiStream").getAsciiStream(columnIndex);
    }

    @Override
    @Deprecated
    @SuppressWarnings("deprecation")
    public BigDecimal getBigDecimal(String columnLabel, int scale) throws SQLException {
        return row("getBigDecimal").getBigDecimal(columnLabel, scale);
    }

    @Override
    public BigDecimal getBigDecimal(String columnLabel) throws SQLException {
        return row("getBigDecimal").getBigDecimal(columnLabel);
    }

    @Override
    @Deprecated
    @SuppressWarnings("deprecation")
    public BigDecimal getBigDecimal(int columnIndex, int scale) throws SQLException {
        return row("getBigDecimal").getBigDecimal(columnIndex, scale);
    }

    @Override
    public BigDecimal getBigDecimal(int columnIndex) throws SQLException {
        return row("getBigDecimal").getBigDecimal(columnIndex);
    }

    @Override
    public InputStream getBinaryStream(String columnLabel) throws SQLException {
        return row("getBinaryStream").getBinaryStream(columnLabel);
    }

    @Override
    public InputStream getBinaryStream(int columnIndex) throws SQLException {
        return row("getBinaryStream").getBinaryStream(columnIndex);
    }

    @Override
    public Blob getBlob(String columnLabel) throws SQLException {
        return row("getBlob").getBlob(columnLabel);
    }

    @Override
    public Blob getBlob(int columnIndex) throws SQLException {
        return row("getBlob").getBlob(columnIndex);
    }

    @Override
    public boolean getBoolean(String columnLabel) throws SQLException {
        return row("getBoolean").getBoolean(columnLabel);
    }

    @Override
    public boolean getBoolean(int columnIndex) throws SQLException {
        return row("getBoolean").getBoolean(columnIndex);
    }

    @Override
    public byte getByte(String columnLabel) throws SQLException {
        return row("getByte").getByte(columnLabel);
    }

    @Override
    public byte getByte(int columnIndex) throws SQLException {
        return row("getByte").getByte(columnIndex);
    }

    @Override
    public byte[] getBytes(String columnLabel) throws SQLException {
        return row("getBytes").getBytes(columnLabel);
    }

    @Override
    public byte[] getBytes(int columnIndex) throws SQLException {
        return row("getBytes").getBytes(columnIndex);
    }

    @Override
    public Reader getCharacterStream(String columnLabel) throws SQLException {
        return row("getCharacterStream").getCharacterStream(columnLabel);
    }

    @Override
    public Reader getCharacterStream(int columnIndex) throws SQLException {
        return row("getCharacterStream").getCharacterStream(columnIndex);
    }

    @Override
    public Clob getClob(String columnLabel) throws SQLException {
        return row("getClob").getClob(columnLabel);
    }

    @Override
    public Clob getClob(int columnIndex) throws SQLException {
        return row("getClob").getClob(columnIndex);
    }

    @Override
    public int getConcurrency() throws SQLException {
        return delegate.getConcurrency();
    }

    @Override
    public String getCursorName() throws SQLException {
        return delegate.getCursorName();
    }

    @Override
    public Date getDate(String columnLabel, Calendar cal) throws SQLException {
        return row("getDate").getDate(columnLabel, cal);
    }

    @Override
    public Date getDate(String columnLabel) throws SQLException {
        return row("getDate").getDate(columnLabel);
    }

    @Override
    public Date getDate(int columnIndex, Calendar cal) throws SQLException {
        return row("getDate").getDate(columnIndex, cal);
    }

    @Override
    public Date getDate(int columnIndex) throws SQLException {
        return row("getDate").getDate(columnIndex);
    }

    @Override
    public double getDouble(String columnLabel) throws SQLException {
        return row("getDouble").getDouble(columnLabel);
    }

    @Override
    public double getDouble(int columnIndex) throws SQLException {
        return row("getDouble").getDouble(columnIndex);
    }

    @Override
    public int getFetchDirection() throws SQLException {
        return delegate.getFetchDirection();
    }

    @Override
    public int getFetchSize() throws SQLException {
        return delegate.getFetchSize();
    }

    @Override
    public float getFloat(String columnLabel) throws SQLException {
        return row("getFloat").getFloat(columnLabel);
    }

    @Override
    public float getFloat(int columnIndex) throws SQLException {
        return row("getFloat").getFloat(columnIndex);
    }

    @Override
    public int getHoldability() throws SQLException {
        return delegate.getHoldability();
    }

    @Override
    public int getInt(String columnLabel) throws SQLException {
        return row("getInt").getInt(columnLabel);
    }

    @Override
    public int getInt(int columnIndex) throws SQLException {
        return row("getInt").getInt(columnIndex);
    }

    @Override
    public long getLong(String columnLabel) throws SQLException {
        return row("getLong").getLong(columnLabel);
    }

    @Override
    public long getLong(int columnIndex) throws SQLException {
        return row("getLong").getLong(columnIndex);
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        return delegate.getMetaData();
    }

    @Override
    public Reader getNCharacterStream(String columnLabel) throws SQLException {
        return row("getNCharacterStream").getNCharacterStream(columnLabel);
    }

    @Override
    public Reader getNCharacterStream(int columnIndex) throws SQLException {
        return row("getNCharacterStream").getNCharacterStream(columnIndex);
    }

    @Override
    public NClob getNClob(String columnLabel) throws SQLException {
        return row("getNClob").getNClob(columnLabel);
    }

    @Override
    public NClob getNClob(int columnIndex) throws SQLException {
        return row("getNClob").getNClob(columnIndex);
    }

    @Override
    public String getNString(String columnLabel) throws SQLException {
        return row("getNString").getNString(columnLabel);
    }

    @Override
    public String getNString(int columnIndex) throws SQLException {
        return row("getNString").getNString(columnIndex);
    }

    @Override
    public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
        return row("getObject").getObject(columnLabel, type);
    }

    @Override
    public Object getObject(String columnLabel, Map<String, Class<?>> map) throws SQLException {
        return row("getObject").getObject(columnLabel, map);
    }

    @Override
    public Object getObject(String columnLabel) throws SQLException {
        return row("getObject").getObject(columnLabel);
    }

    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        return row("getObject").getObject(columnIndex, type);
    }

    @Override
    public Object getObject(int columnIndex, Map<String, Class<?>> map) throws SQLException {
        return row("getObject").getObject(columnIndex, map);
    }

    @Override
    public Object getObject(int columnIndex) throws SQLException {
        return row("getObject").getObject(columnIndex);
    }

    @Override
    public Ref getRef(String columnLabel) throws SQLException {
        return row("getRef").getRef(columnLabel);
    }

    @Override
    public Ref getRef(int columnIndex) throws SQLException {
        return row("getRef").getRef(columnIndex);
    }

    @Override
    public int getRow() throws SQLException {
        return delegate.getRow();
    }

    @Override
    public RowId getRowId(String columnLabel) throws SQLException {
        return row("getRowId").getRowId(columnLabel);
    }

    @Override
    public RowId getRowId(int columnIndex) throws SQLException {
        return row("getRowId").getRowId(columnIndex);
    }

    @Override
    public SQLXML getSQLXML(String columnLabel) throws SQLException {
        return row("getSQLXML").getSQLXML(columnLabel);
    }

    @Override
    public SQLXML getSQLXML(int columnIndex) throws SQLException {
        return row("getSQLXML").getSQLXML(columnIndex);
    }

    @Override
    public short getShort(String columnLabel) throws SQLException {
        return row("getShort").getShort(columnLabel);
    }

    @Override
    public short getShort(int columnIndex) throws SQLException {
        return row("getShort").getShort(columnIndex);
    }

    @Override
    public Statement getStatement() throws SQLException {
        return delegate.getStatement();
    }

    @Override
    public String getString(String columnLabel) throws SQLException {
        return row("getString").getString(columnLabel);
    }

    @Override
    public String getString(int columnIndex) throws SQLException {
        return row("getString").getString(columnIndex);
    }

    @Override
    public Time getTime(String columnLabel, Calendar cal) throws SQLException {
        return row("getTime").getTime(columnLabel, cal);
    }

    @Override
    public Time getTime(String columnLabel) throws SQLException {
        return row("getTime").getTime(columnLabel);
    }

    @Override
    public Time getTime(int columnIndex, Calendar cal) throws SQLException {
        return row("getTime").getTime(columnIndex, cal);
    }

    @Override
    public Time getTime(int columnIndex) throws SQLException {
        return row("getTime").getTime(columnIndex);
    }

    @Override
    public Timestamp getTimestamp(String columnLabel, Calendar cal) throws SQLException {
        return row("getTimestamp").getTimestamp(columnLabel, cal);
    }

    @Override
    public Timestamp getTimestamp(String columnLabel) throws SQLException {
        return row("getTimestamp").getTimestamp(columnLabel);
    }

    @Override
    public Timestamp getTimestamp(int columnIndex, Calendar cal) throws SQLException {
        return row("getTimestamp").getTimestamp(columnIndex, cal);
    }

    @Override
    public Timestamp getTimestamp(int columnIndex) throws SQLException {
        return row("getTimestamp").getTimestamp(columnIndex);
    }

    @Override
    public int getType() throws SQLException {
        return delegate.getType();
    }

    @Override
    public URL getURL(String columnLabel) throws SQLException {
        return row("getURL").getURL(columnLabel);
    }

    @Override
    public URL getURL(int columnIndex) throws SQLException {
        return row("getURL").getURL(columnIndex);
    }

    @Override
    @Deprecated
    @SuppressWarnings("deprecation")
    public InputStream getUnicodeStream(String columnLabel) throws SQLException {
        return row("getUnicodeStream").getUnicodeStream(columnLabel);
    }

    @Override
    @Deprecated
    @SuppressWarnings("deprecation")
    public InputStream getUnicodeStream(int columnIndex) throws SQLException {
        return row("getUnicodeStream").getUnicodeStream(columnIndex);
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        return delegate.getWarnings();
    }

    @Override
    public void insertRow() throws SQLException {
        delegate.insertRow();
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        return delegate.isAfterLast();
    }

    @Override
    public boolean isBeforeFirst() throws SQLException {
        return delegate.isBeforeFirst();
    }

    @Override
    public boolean isClosed() throws SQLException {
        return delegate.isClosed();
    }

    @Override
    public boolean isFirst() throws SQLException {
        return delegate.isFirst();
    }

    @Override
    public boolean isLast() throws SQLException {
        return delegate.isLast();
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return delegate.isWrapperFor(iface);
    }

    @Override
    public boolean last() throws SQLException {
        return delegate.last();
    }

    @Override
    public void moveToCurrentRow() throws SQLException {
        delegate.moveToCurrentRow();
    }

    @Override
    public void moveToInsertRow() throws SQLException {
        delegate.moveToInsertRow();
    }

    @Override
    public boolean next() throws SQLException {
        return delegate.next();
    }

    @Override
    public boolean previous() throws SQLException {
        return delegate.previous();
    }

    @Override
    public void refreshRow() throws SQLException {
        delegate.refreshRow();
    }

    @Override
    public boolean relative(int rows) throws SQLException {
        return delegate.relative(rows);
    }

    @Override
    public boolean rowDeleted() throws SQLException {
        return delegate.rowDeleted();
    }

    @Override
    public boolean rowInserted() throws SQLException {
        return delegate.rowInserted();
    }

    @Override
    public boolean rowUpdated() throws SQLException {
        return delegate.rowUpdated();
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        delegate.setFetchDirection(direction);
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        delegate.setFetchSize(rows);
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return delegate.unwrap(iface);
    }

    @Override
    public void updateArray(String columnLabel, Array x) throws SQLException {
        delegate.updateArray(columnLabel, x);
    }

    @Override
    public void updateArray(int columnIndex, Array x) throws SQLException {
        delegate.updateArray(columnIndex, x);
    }

    @Override
    public void updateAsciiStream(String columnLabel, InputStream x, int length) throws SQLException {
        delegate.updateAsciiStream(columnLabel, x, length);
    }

    @Override
    public void updateAsciiStream(String columnLabel, InputStream x, long length) throws SQLException {
        delegate.updateAsciiStream(columnLabel, x, length);
    }

    @Override
    public void updateAsciiStream(String columnLabel, InputStream x) throws SQLException {
        delegate.updateAsciiStream(columnLabel, x);
    }

    @Override
    public void updateAsciiStream(int columnIndex, InputStream x, int length) throws SQLException {
        delegate.updateAsciiStream(columnIndex, x, length);
    }

    @Override
    public void updateAsciiStream(int columnIndex, InputStream x, long length) throws SQLException {
        delegate.updateAsciiStream(columnIndex, x, length);
    }

    @Override
    public void updateAsciiStream(int columnIndex, InputStream x) throws SQLException {
        delegate.updateAsciiStream(columnIndex, x);
    }

    @Override
    public void updateBigDecimal(String columnLabel, BigDecimal x) throws SQLException {
        delegate.updateBigDecimal(columnLabel, x);
    }

    @Override
    public void updateBigDecimal(int columnIndex, BigDecimal x) throws SQLException {
        delegate.updateBigDecimal(columnIndex, x);
    }

    @Override
    public void updateBinaryStream(String columnLabel, InputStream x, int length) throws SQLException {
        delegate.updateBinaryStream(columnLabel, x, length);
    }

    @Override
    public void updateBinaryStream(String columnLabel, InputStream x, long length) throws SQLException {
        delegate.updateBinaryStream(columnLabel, x, length);
    }

    @Override
    public void updateBinaryStream(String columnLabel, InputStream x) throws SQLException {
        delegate.updateBinaryStream(columnLabel, x);
    }

    @Override
    public void updateBinaryStream(int columnIndex, InputStream x, int length) throws SQLException {
        delegate.updateBinaryStream(columnIndex, x, length);
    }

    @Override
    public void updateBinaryStream(int columnIndex, InputStream x, long length) throws SQLException {
        delegate.updateBinaryStream(columnIndex, x, length);
    }

    @Override
    public void updateBinaryStream(int columnIndex, InputStream x) throws SQLException {
        delegate.updateBinaryStream(columnIndex, x);
    }

    @Override
    public void updateBlob(String columnLabel, InputStream x, long length) throws SQLException {
        delegate.updateBlob(columnLabel, x, length);
    }

    @Override
    public void updateBlob(String columnLabel, InputStream x) throws SQLException {
        delegate.updateBlob(columnLabel, x);
    }

    @Override
    public void updateBlob(String columnLabel, Blob x) throws SQLException {
        delegate.updateBlob(columnLabel, x);
    }

    @Override
    public void updateBlob(int columnIndex, InputStream x, long length) throws SQLException {
        delegate.updateBlob(columnIndex, x, length);
    }

    @Override
    public void updateBlob(int columnIndex, InputStream x) throws SQLException {
        delegate.updateBlob(columnIndex, x);
    }

    @Override
    public void updateBlob(int columnIndex, Blob x) throws SQLException {
        delegate.updateBlob(columnIndex, x);
    }

    @Override
    public void updateBoolean(String columnLabel, boolean x) throws SQLException {
        delegate.updateBoolean(columnLabel, x);
    }

    @Override
    public void updateBoolean(int columnIndex, boolean x) throws SQLException {
        delegate.updateBoolean(columnIndex, x);
    }

    @Override
    public void updateByte(String columnLabel, byte x) throws SQLException {
        delegate.updateByte(columnLabel, x);
    }

    @Override
    public void updateByte(int columnIndex, byte x) throws SQLException {
        delegate.updateByte(columnIndex, x);
    }

    @Override
    public void updateBytes(String columnLabel, byte[] x) throws SQLException {
        delegate.updateBytes(columnLabel, x);
    }

    @Override
    public void updateBytes(int columnIndex, byte[] x) throws SQLException {
        delegate.updateBytes(columnIndex, x);
    }

    @Override
    public void updateCharacterStream(String columnLabel, Reader x, int length) throws SQLException {
        delegate.updateCharacterStream(columnLabel, x, length);
    }

    @Override
    public void updateCharacterStream(String columnLabel, Reader x, long length) throws SQLException {
        delegate.updateCharacterStream(columnLabel, x, length);
    }

    @Override
    public void updateCharacterStream(String columnLabel, Reader x) throws SQLException {
        delegate.updateCharacterStream(columnLabel, x);
    }

    @Override
    public void updateCharacterStream(int columnIndex, Reader x, int length) throws SQLException {
        delegate.updateCharacterStream(columnIndex, x, length);
    }

    @Override
    public void updateCharacterStream(int columnIndex, Reader x, long length) throws SQLException {
        delegate.updateCharacterStream(columnIndex, x, length);
    }

    @Override
    public void updateCharacterStream(int columnIndex, Reader x) throws SQLException {
        delegate.updateCharacterStream(columnIndex, x);
    }

    @Override
    public void updateClob(String columnLabel, Reader x, long length) throws SQLException {
        delegate.updateClob(columnLabel, x, length);
    }

    @Override
    public void updateClob(String columnLabel, Reader x) throws SQLException {
        delegate.updateClob(columnLabel, x);
    }

    @Override
    public void updateClob(String columnLabel, Clob x) throws SQLException {
        delegate.updateClob(columnLabel, x);
    }

    @Override
    public void updateClob(int columnIndex, Reader x, long length) throws SQLException {
        delegate.updateClob(columnIndex, x, length);
    }

    @Override
    public void updateClob(int columnIndex, Reader x) throws SQLException {
        delegate.updateClob(columnIndex, x);
    }

    @Override
    public void updateClob(int columnIndex, Clob x) throws SQLException {
        delegate.updateClob(columnIndex, x);
    }

    @Override
    public void updateDate(String columnLabel, Date x) throws SQLException {
        delegate.updateDate(columnLabel, x);
    }

    @Override
    public void updateDate(int columnIndex, Date x) throws SQLException {
        delegate.updateDate(columnIndex, x);
    }

    @Override
    public void updateDouble(String columnLabel, double x) throws SQLException {
        delegate.updateDouble(columnLabel, x);
    }

    @Override
    public void updateDouble(int columnIndex, double x) throws SQLException {
        delegate.updateDouble(columnIndex, x);
    }

    @Override
    public void updateFloat(String columnLabel, float x) throws SQLException {
        delegate.updateFloat(columnLabel, x);
    }

    @Override
    public void updateFloat(int columnIndex, float x) throws SQLException {
        delegate.updateFloat(columnIndex, x);
    }

    @Override
    public void updateInt(String columnLabel, int x) throws SQLException {
        delegate.updateInt(columnLabel, x);
    }

    @Override
    public void updateInt(int columnIndex, int x) throws SQLException {
        delegate.updateInt(columnIndex, x);
    }

    @Override
    public void updateLong(String columnLabel, long length) throws SQLException {
        delegate.updateLong(columnLabel, length);
    }

    @Override
    public void updateLong(int columnIndex, long length) throws SQLException {
        delegate.updateLong(columnIndex, length);
    }

    @Override
    public void updateNCharacterStream(String columnLabel, Reader x, long length) throws SQLException {
        delegate.updateNCharacterStream(columnLabel, x, length);
    }

    @Override
    public void updateNCharacterStream(String columnLabel, Reader x) throws SQLException {
        delegate.updateNCharacterStream(columnLabel, x);
    }

    @Override
    public void updateNCharacterStream(int columnIndex, Reader x, long length) throws SQLException {
        delegate.updateNCharacterStream(columnIndex, x, length);
    }

    @Override
    public void updateNCharacterStream(int columnIndex, Reader x) throws SQLException {
        delegate.updateNCharacterStream(columnIndex, x);
    }

    @Override
    public void updateNClob(String columnLabel, Reader x, long length) throws SQLException {
        delegate.updateNClob(columnLabel, x, length);
    }

    @Override
    public void updateNClob(String columnLabel, Reader x) throws SQLException {
        delegate.updateNClob(columnLabel, x);
    }

    @Override
    public void updateNClob(String columnLabel, NClob x) throws SQLException {
        delegate.updateNClob(columnLabel, x);
    }

    @Override
    public void updateNClob(int columnIndex, Reader x, long length) throws SQLException {
        delegate.updateNClob(columnIndex, x, length);
    }

    @Override
    public void updateNClob(int columnIndex, Reader x) throws SQLException {
        delegate.updateNClob(columnIndex, x);
    }

    @Override
    public void updateNClob(int columnIndex, NClob x) throws SQLException {
        delegate.updateNClob(columnIndex, x);
    }

    @Override
    public void updateNString(String columnLabel, String x) throws SQLException {
        delegate.updateNString(columnLabel, x);
    }

    @Override
    public void updateNString(int columnIndex, String x) throws SQLException {
        delegate.updateNString(columnIndex, x);
    }

    @Override
    public void updateNull(String columnLabel) throws SQLException {
        delegate.updateNull(columnLabel);
    }

    @Override
    public void updateNull(int columnIndex) throws SQLException {
        delegate.updateNull(columnIndex);
    }

    @Override
    public void updateObject(String columnLabel, Object x, int scaleOrLength) throws SQLException {
        delegate.updateObject(columnLabel, x, scaleOrLength);
    }

    @Override
    public void updateObject(String columnLabel, Object x, SQLType targetSqlType, int scaleOrLength) throws SQLException {
        delegate.updateObject(columnLabel, x, targetSqlType, scaleOrLength);
    }

    @Override
    public void updateObject(String columnLabel, Object x, SQLType targetSqlType) throws SQLException {
        delegate.updateObject(columnLabel, x, targetSqlType);
    }

    @Override
    public void updateObject(String columnLabel, Object x) throws SQLException {
        delegate.updateObject(columnLabel, x);
    }

    @Override
    public void updateObject(int columnIndex, Object x, int scaleOrLength) throws SQLException {
        delegate.updateObject(columnIndex, x, scaleOrLength);
    }

    @Override
    public void updateObject(int columnIndex, Object x, SQLType targetSqlType, int scaleOrLength) throws SQLException {
        delegate.updateObject(columnIndex, x, targetSqlType, scaleOrLength);
    }

    @Override
    public void updateObject(int columnIndex, Object x, SQLType targetSqlType) throws SQLException {
        delegate.updateObject(columnIndex, x, targetSqlType);
    }

    @Override
    public void updateObject(int columnIndex, Object x) throws SQLException {
        delegate.updateObject(columnIndex, x);
    }

    @Override
    public void updateRef(String columnLabel, Ref x) throws SQLException {
        delegate.updateRef(columnLabel, x);
    }

    @Override
    public void updateRef(int columnIndex, Ref x) throws SQLException {
        delegate.updateRef(columnIndex, x);
    }

    @Override
    public void updateRow() throws SQLException {
        delegate.updateRow();
    }

    @Override
    public void updateRowId(String columnLabel, RowId x) throws SQLException {
        delegate.updateRowId(columnLabel, x);
    }

    @Override
    public void updateRowId(int columnIndex, RowId x) throws SQLException {
        delegate.updateRowId(columnIndex, x);
    }

    @Override
    public void updateSQLXML(String columnLabel, SQLXML x) throws SQLException {
        delegate.updateSQLXML(columnLabel, x);
    }

    @Override
    public void updateSQLXML(int columnIndex, SQLXML x) throws SQLException {
        delegate.updateSQLXML(columnIndex, x);
    }

    @Override
    public void updateShort(String columnLabel, short x) throws SQLException {
        delegate.updateShort(columnLabel, x);
    }

    @Override
    public void updateShort(int columnIndex, short x) throws SQLException {
        delegate.updateShort(columnIndex, x);
    }

    @Override
    public void updateString(String columnLabel, String x) throws SQLException {
        delegate.updateString(columnLabel, x);
    }

    @Override
    public void updateString(int columnIndex, String x) throws SQLException {
        delegate.updateString(columnIndex, x);
    }

    @Override
    public void updateTime(String columnLabel, Time x) throws SQLException {
        delegate.updateTime(columnLabel, x);
    }

    @Override
    public void updateTime(int columnIndex, Time x) throws SQLException {
        delegate.updateTime(columnIndex, x);
    }

    @Override
    public void updateTimestamp(String columnLabel, Timestamp x) throws SQLException {
        delegate.updateTimestamp(columnLabel, x);
    }

    @Override
    public void updateTimestamp(int columnIndex, Timestamp x) throws SQLException {
        delegate.updateTimestamp(columnIndex, x);
    }

    @Override
    public boolean wasNull() throws SQLException {
        return row("wasNull").wasNull();
    }
}
