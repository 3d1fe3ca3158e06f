package io.numacol.jdbc;

import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;

/**
 * A result set that is what numacol's are unless a statement asks for a scroll-insensitive one
 * ({@link ScrollInsensitiveResultSet}): forward-only and read-only ({@link ResultSetKinds}). Each
 * method that scrolls, changes a row or names a row's ROWID or cursor fails with an
 * SQLFeatureNotSupportedException of SQLSTATE 0A000 whose message names the method and says what
 * to do instead: Avatica's had no message and no SQLSTATE. A getter of a value before the first
 * {@code next()}, or after one that returned false, is an SQLException of SQLSTATE 24000 (invalid
 * cursor state) saying where the cursor is, as a scrolling result set's is ({@link #noRow}):
 * Avatica's had a NoSuchElementException's text and no SQLSTATE. The methods that scroll are left
 * for the scrolling subclass to override.
 */
abstract class ForwardOnlyResultSet extends ForwardingResultSet {
    private static final byte BEFORE_FIRST = 0;
    private static final byte ON_ROW = 1;
    private static final byte AFTER_LAST = 2;

    /** Where {@link #next()} left the cursor: {@link #BEFORE_FIRST}, {@link #ON_ROW} or {@link #AFTER_LAST}. */
    private byte cursor = BEFORE_FIRST;

    ForwardOnlyResultSet(ResultSet delegate) {
        super(delegate);
    }

    @Override
    public boolean next() throws SQLException {
        boolean onRow = delegate.next();
        cursor = onRow ? ON_ROW : AFTER_LAST;
        return onRow;
    }

    /**
     * The delegate while it is on a row; else 24000, and a closed result set's own failure from
     * the delegate. Where the cursor is, the delegate says: a statement's {@code getResultSet()}
     * wraps its one result set anew at each call, and a wrapper that had not seen next() would
     * have refused the row another one moved to. Only a delegate that cannot say is judged by
     * what this wrapper's next() saw.
     */
    @Override
    protected ResultSet row(String method) throws SQLException {
        if (delegate.isClosed()) {
            return delegate;
        }
        byte at;
        try {
            boolean before = delegate.isBeforeFirst();
            boolean after = delegate.isAfterLast();
            // an empty result set stays before its first row for Avatica after next() said false
            at = !before && !after ? ON_ROW : after || cursor == AFTER_LAST ? AFTER_LAST : BEFORE_FIRST;
        } catch (SQLFeatureNotSupportedException e) {
            at = cursor;
        }
        if (at == ON_ROW) {
            return delegate;
        }
        throw at == BEFORE_FIRST
                ? noRow(method, "before the first row", "call next() first, and read a row's values while next() returns true")
                : noRow(method, "after the last row", "next() returned false; read a row's values only while next() returns true");
    }

    /**
     * A read of a value where there is no current row: SQLSTATE 24000 (invalid cursor state), the
     * getter, where the cursor is and {@code move}, how to get to a row. Forward-only and
     * scrolling result sets say it alike.
     */
    static SQLException noRow(String method, String where, String move) {
        return new SQLException("ResultSet." + method + ": there is no current row, the cursor is " + where + "; " + move, "24000");
    }

    private static SQLFeatureNotSupportedException scrolls(String method) {
        return unsupported(method, "this result set is TYPE_FORWARD_ONLY: read the rows in order with next(), or ask for"
                + " ResultSet.TYPE_SCROLL_INSENSITIVE when creating the statement");
    }

    private static SQLFeatureNotSupportedException updates(String method) {
        return unsupported(method, "numacol's result sets are CONCUR_READ_ONLY: change rows with UPDATE, INSERT or DELETE");
    }

    private static SQLFeatureNotSupportedException unsupported(String method, String why) {
        return new SQLFeatureNotSupportedException("ResultSet." + method + ": " + why, "0A000");
    }

    /** Only FETCH_FORWARD, the one order a forward-only result set has. */
    @Override
    public void setFetchDirection(int direction) throws SQLException {
        if (direction != ResultSet.FETCH_FORWARD) {
            throw scrolls("setFetchDirection(" + (direction == ResultSet.FETCH_REVERSE ? "FETCH_REVERSE" : direction == ResultSet.FETCH_UNKNOWN
                    ? "FETCH_UNKNOWN" : String.valueOf(direction)) + ")");
        }
        super.setFetchDirection(direction);
    }

    @Override
    public boolean absolute(int row) throws SQLException {
        throw scrolls("absolute");
    }

    @Override
    public void afterLast() throws SQLException {
        throw scrolls("afterLast");
    }

    @Override
    public void beforeFirst() throws SQLException {
        throw scrolls("beforeFirst");
    }

    @Override
    public final void cancelRowUpdates() throws SQLException {
        throw updates("cancelRowUpdates");
    }

    @Override
    public final void deleteRow() throws SQLException {
        throw updates("deleteRow");
    }

    @Override
    public boolean first() throws SQLException {
        throw scrolls("first");
    }

    @Override
    public final String getCursorName() throws SQLException {
        throw unsupported("getCursorName", "numacol names no cursors (positioned UPDATE ... WHERE CURRENT OF is not SQL it runs)");
    }

    @Override
    public final RowId getRowId(String columnLabel) throws SQLException {
        throw unsupported("getRowId", "numacol's rows have no ROWID");
    }

    @Override
    public final RowId getRowId(int columnIndex) throws SQLException {
        throw unsupported("getRowId", "numacol's rows have no ROWID");
    }

    @Override
    public final void insertRow() throws SQLException {
        throw updates("insertRow");
    }

    @Override
    public boolean isLast() throws SQLException {
        throw scrolls("isLast");
    }

    @Override
    public boolean last() throws SQLException {
        throw scrolls("last");
    }

    @Override
    public final void moveToCurrentRow() throws SQLException {
        throw updates("moveToCurrentRow");
    }

    @Override
    public final void moveToInsertRow() throws SQLException {
        throw updates("moveToInsertRow");
    }

    @Override
    public boolean previous() throws SQLException {
        throw scrolls("previous");
    }

    @Override
    public final void refreshRow() throws SQLException {
        throw updates("refreshRow");
    }

    @Override
    public boolean relative(int rows) throws SQLException {
        throw scrolls("relative");
    }

    @Override
    public final void updateArray(String columnLabel, Array x) throws SQLException {
        throw updates("updateArray");
    }

    @Override
    public final void updateArray(int columnIndex, Array x) throws SQLException {
        throw updates("updateArray");
    }

    @Override
    public final void updateAsciiStream(String columnLabel, InputStream x, int length) throws SQLException {
        throw updates("updateAsciiStream");
    }

    @Override
    public final void updateAsciiStream(String columnLabel, InputStream x, long length) throws SQLException {
        throw updates("updateAsciiStream");
    }

    @Override
    public final void updateAsciiStream(String columnLabel, InputStream x) throws SQLException {
        throw updates("updateAsciiStream");
    }

    @Override
    public final void updateAsciiStream(int columnIndex, InputStream x, int length) throws SQLException {
        throw updates("updateAsciiStream");
    }

    @Override
    public final void updateAsciiStream(int columnIndex, InputStream x, long length) throws SQLException {
        throw updates("updateAsciiStream");
    }

    @Override
    public final void updateAsciiStream(int columnIndex, InputStream x) throws SQLException {
        throw updates("updateAsciiStream");
    }

    @Override
    public final void updateBigDecimal(String columnLabel, BigDecimal x) throws SQLException {
        throw updates("updateBigDecimal");
    }

    @Override
    public final void updateBigDecimal(int columnIndex, BigDecimal x) throws SQLException {
        throw updates("updateBigDecimal");
    }

    @Override
    public final void updateBinaryStream(String columnLabel, InputStream x, int length) throws SQLException {
        throw updates("updateBinaryStream");
    }

    @Override
    public final void updateBinaryStream(String columnLabel, InputStream x, long length) throws SQLException {
        throw updates("updateBinaryStream");
    }

    @Override
    public final void updateBinaryStream(String columnLabel, InputStream x) throws SQLException {
        throw updates("updateBinaryStream");
    }

    @Override
    public final void updateBinaryStream(int columnIndex, InputStream x, int length) throws SQLException {
        throw updates("updateBinaryStream");
    }

    @Override
    public final void updateBinaryStream(int columnIndex, InputStream x, long length) throws SQLException {
        throw updates("updateBinaryStream");
    }

    @Override
    public final void updateBinaryStream(int columnIndex, InputStream x) throws SQLException {
        throw updates("updateBinaryStream");
    }

    @Override
    public final void updateBlob(String columnLabel, InputStream x, long length) throws SQLException {
        throw updates("updateBlob");
    }

    @Override
    public final void updateBlob(String columnLabel, InputStream x) throws SQLException {
        throw updates("updateBlob");
    }

    @Override
    public final void updateBlob(String columnLabel, Blob x) throws SQLException {
        throw updates("updateBlob");
    }

    @Override
    public final void updateBlob(int columnIndex, InputStream x, long length) throws SQLException {
        throw updates("updateBlob");
    }

    @Override
    public final void updateBlob(int columnIndex, InputStream x) throws SQLException {
        throw updates("updateBlob");
    }

    @Override
    public final void updateBlob(int columnIndex, Blob x) throws SQLException {
        throw updates("updateBlob");
    }

    @Override
    public final void updateBoolean(String columnLabel, boolean x) throws SQLException {
        throw updates("updateBoolean");
    }

    @Override
    public final void updateBoolean(int columnIndex, boolean x) throws SQLException {
        throw updates("updateBoolean");
    }

    @Override
    public final void updateByte(String columnLabel, byte x) throws SQLException {
        throw updates("updateByte");
    }

    @Override
    public final void updateByte(int columnIndex, byte x) throws SQLException {
        throw updates("updateByte");
    }

    @Override
    public final void updateBytes(String columnLabel, byte[] x) throws SQLException {
        throw updates("updateBytes");
    }

    @Override
    public final void updateBytes(int columnIndex, byte[] x) throws SQLException {
        throw updates("updateBytes");
    }

    @Override
    public final void updateCharacterStream(String columnLabel, Reader x, int length) throws SQLException {
        throw updates("updateCharacterStream");
    }

    @Override
    public final void updateCharacterStream(String columnLabel, Reader x, long length) throws SQLException {
        throw updates("updateCharacterStream");
    }

    @Override
    public final void updateCharacterStream(String columnLabel, Reader x) throws SQLException {
        throw updates("updateCharacterStream");
    }

    @Override
    public final void updateCharacterStream(int columnIndex, Reader x, int length) throws SQLException {
        throw updates("updateCharacterStream");
    }

    @Override
    public final void updateCharacterStream(int columnIndex, Reader x, long length) throws SQLException {
        throw updates("updateCharacterStream");
    }

    @Override
    public final void updateCharacterStream(int columnIndex, Reader x) throws SQLException {
        throw updates("updateCharacterStream");
    }

    @Override
    public final void updateClob(String columnLabel, Reader x, long length) throws SQLException {
        throw updates("updateClob");
    }

    @Override
    public final void updateClob(String columnLabel, Reader x) throws SQLException {
        throw updates("updateClob");
    }

    @Override
    public final void updateClob(String columnLabel, Clob x) throws SQLException {
        throw updates("updateClob");
    }

    @Override
    public final void updateClob(int columnIndex, Reader x, long length) throws SQLException {
        throw updates("updateClob");
    }

    @Override
    public final void updateClob(int columnIndex, Reader x) throws SQLException {
        throw updates("updateClob");
    }

    @Override
    public final void updateClob(int columnIndex, Clob x) throws SQLException {
        throw updates("updateClob");
    }

    @Override
    public final void updateDate(String columnLabel, Date x) throws SQLException {
        throw updates("updateDate");
    }

    @Override
    public final void updateDate(int columnIndex, Date x) throws SQLException {
        throw updates("updateDate");
    }

    @Override
    public final void updateDouble(String columnLabel, double x) throws SQLException {
        throw updates("updateDouble");
    }

    @Override
    public final void updateDouble(int columnIndex, double x) throws SQLException {
        throw updates("updateDouble");
    }

    @Override
    public final void updateFloat(String columnLabel, float x) throws SQLException {
        throw updates("updateFloat");
    }

    @Override
    public final void updateFloat(int columnIndex, float x) throws SQLException {
        throw updates("updateFloat");
    }

    @Override
    public final void updateInt(String columnLabel, int x) throws SQLException {
        throw updates("updateInt");
    }

    @Override
    public final void updateInt(int columnIndex, int x) throws SQLException {
        throw updates("updateInt");
    }

    @Override
    public final void updateLong(String columnLabel, long length) throws SQLException {
        throw updates("updateLong");
    }

    @Override
    public final void updateLong(int columnIndex, long length) throws SQLException {
        throw updates("updateLong");
    }

    @Override
    public final void updateNCharacterStream(String columnLabel, Reader x, long length) throws SQLException {
        throw updates("updateNCharacterStream");
    }

    @Override
    public final void updateNCharacterStream(String columnLabel, Reader x) throws SQLException {
        throw updates("updateNCharacterStream");
    }

    @Override
    public final void updateNCharacterStream(int columnIndex, Reader x, long length) throws SQLException {
        throw updates("updateNCharacterStream");
    }

    @Override
    public final void updateNCharacterStream(int columnIndex, Reader x) throws SQLException {
        throw updates("updateNCharacterStream");
    }

    @Override
    public final void updateNClob(String columnLabel, Reader x, long length) throws SQLException {
        throw updates("updateNClob");
    }

    @Override
    public final void updateNClob(String columnLabel, Reader x) throws SQLException {
        throw updates("updateNClob");
    }

    @Override
    public final void updateNClob(String columnLabel, NClob x) throws SQLException {
        throw updates("updateNClob");
    }

    @Override
    public final void updateNClob(int columnIndex, Reader x, long length) throws SQLException {
        throw updates("updateNClob");
    }

    @Override
    public final void updateNClob(int columnIndex, Reader x) throws SQLException {
        throw updates("updateNClob");
    }

    @Override
    public final void updateNClob(int columnIndex, NClob x) throws SQLException {
        throw updates("updateNClob");
    }

    @Override
    public final void updateNString(String columnLabel, String x) throws SQLException {
        throw updates("updateNString");
    }

    @Override
    public final void updateNString(int columnIndex, String x) throws SQLException {
        throw updates("updateNString");
    }

    @Override
    public final void updateNull(String columnLabel) throws SQLException {
        throw updates("updateNull");
    }

    @Override
    public final void updateNull(int columnIndex) throws SQLException {
        throw updates("updateNull");
    }

    @Override
    public final void updateObject(String columnLabel, Object x, int scaleOrLength) throws SQLException {
        throw updates("updateObject");
    }

    @Override
    public final void updateObject(String columnLabel, Object x, SQLType targetSqlType, int scaleOrLength) throws SQLException {
        throw updates("updateObject");
    }

    @Override
    public final void updateObject(String columnLabel, Object x, SQLType targetSqlType) throws SQLException {
        throw updates("updateObject");
    }

    @Override
    public final void updateObject(String columnLabel, Object x) throws SQLException {
        throw updates("updateObject");
    }

    @Override
    public final void updateObject(int columnIndex, Object x, int scaleOrLength) throws SQLException {
        throw updates("updateObject");
    }

    @Override
    public final void updateObject(int columnIndex, Object x, SQLType targetSqlType, int scaleOrLength) throws SQLException {
        throw updates("updateObject");
    }

    @Override
    public final void updateObject(int columnIndex, Object x, SQLType targetSqlType) throws SQLException {
        throw updates("updateObject");
    }

    @Override
    public final void updateObject(int columnIndex, Object x) throws SQLException {
        throw updates("updateObject");
    }

    @Override
    public final void updateRef(String columnLabel, Ref x) throws SQLException {
        throw updates("updateRef");
    }

    @Override
    public final void updateRef(int columnIndex, Ref x) throws SQLException {
        throw updates("updateRef");
    }

    @Override
    public final void updateRow() throws SQLException {
        throw updates("updateRow");
    }

    @Override
    public final void updateRowId(String columnLabel, RowId x) throws SQLException {
        throw updates("updateRowId");
    }

    @Override
    public final void updateRowId(int columnIndex, RowId x) throws SQLException {
        throw updates("updateRowId");
    }

    @Override
    public final void updateSQLXML(String columnLabel, SQLXML x) throws SQLException {
        throw updates("updateSQLXML");
    }

    @Override
    public final void updateSQLXML(int columnIndex, SQLXML x) throws SQLException {
        throw updates("updateSQLXML");
    }

    @Override
    public final void updateShort(String columnLabel, short x) throws SQLException {
        throw updates("updateShort");
    }

    @Override
    public final void updateShort(int columnIndex, short x) throws SQLException {
        throw updates("updateShort");
    }

    @Override
    public final void updateString(String columnLabel, String x) throws SQLException {
        throw updates("updateString");
    }

    @Override
    public final void updateString(int columnIndex, String x) throws SQLException {
        throw updates("updateString");
    }

    @Override
    public final void updateTime(String columnLabel, Time x) throws SQLException {
        throw updates("updateTime");
    }

    @Override
    public final void updateTime(int columnIndex, Time x) throws SQLException {
        throw updates("updateTime");
    }

    @Override
    public final void updateTimestamp(String columnLabel, Timestamp x) throws SQLException {
        throw updates("updateTimestamp");
    }

    @Override
    public final void updateTimestamp(int columnIndex, Timestamp x) throws SQLException {
        throw updates("updateTimestamp");
    }
}
