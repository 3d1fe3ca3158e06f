package io.numacol.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A {@code TYPE_SCROLL_INSENSITIVE} result set: the query's rows held in memory ({@link
 * ScrollableRows}, read to the end when it ran, so later commits do not show), moved through
 * with every method JDBC gives: {@code previous}, {@code absolute} (negative from the end),
 * {@code relative}, {@code first}, {@code last}, {@code beforeFirst}, {@code afterLast}, and
 * asked where it is. A move puts Avatica's cursor on the row, so the getters convert as a
 * forward-only result set's do; before the first row and after the last, a getter is an
 * SQLException of SQLSTATE 24000 (invalid cursor state) saying where the cursor is.
 */
final class ScrollInsensitiveResultSet extends NumacolResultSet {
    private final ScrollableRows rows;
    /** 0 before the first row, 1 to n on a row, n + 1 after the last. */
    private int position;
    private int fetchDirection = ResultSet.FETCH_FORWARD;

    /** A scrolling result set over Avatica's {@code delegate}, whose cursor reads {@code rows}. */
    ScrollInsensitiveResultSet(ResultSet delegate, Statement statement, ScrollableRows rows) {
        super(delegate, statement);
        this.rows = rows;
    }

    private boolean onRow() {
        return position >= 1 && position <= rows.size();
    }

    /** The delegate, whose cursor a move put on the row, while on a row; else 24000. */
    @Override
    protected ResultSet row(String method) throws SQLException {
        if (onRow()) {
            return delegate;
        }
        String where = position == 0 ? "before the first row" : rows.size() == 0 ? "in a result without rows" : "after the last row";
        throw noRow(method, where, "move to a row with next(), first(), last() or absolute(n)");
    }

    /** Moves to {@code to} (clamped to 0..n + 1), putting the cursor on the row when it is one; whether it is. */
    private boolean moveTo(long to) throws SQLException {
        int n = rows.size();
        position = (int) Math.max(0, Math.min(n + 1L, to));
        if (!onRow()) {
            return false;
        }
        rows.seek(position - 1);
        if (!delegate.next()) {
            throw new IllegalStateException("row " + position + " of " + n + " was not there to read");
        }
        return true;
    }

    @Override
    public boolean next() throws SQLException {
        checkOpen();
        return moveTo(position + 1L);
    }

    @Override
    public boolean previous() throws SQLException {
        checkOpen();
        return moveTo(position - 1L);
    }

    /** Row {@code row}, counted from the end when negative (-1 is the last); 0 is before the first. */
    @Override
    public boolean absolute(int row) throws SQLException {
        checkOpen();
        return moveTo(row >= 0 ? row : rows.size() + 1L + row);
    }

    @Override
    public boolean relative(int rows) throws SQLException {
        checkOpen();
        return moveTo((long) position + rows);
    }

    @Override
    public boolean first() throws SQLException {
        checkOpen();
        return moveTo(1);
    }

    @Override
    public boolean last() throws SQLException {
        checkOpen();
        return moveTo(rows.size());
    }

    @Override
    public void beforeFirst() throws SQLException {
        checkOpen();
        moveTo(0);
    }

    @Override
    public void afterLast() throws SQLException {
        checkOpen();
        moveTo(rows.size() + 1L);
    }

    @Override
    public boolean isBeforeFirst() throws SQLException {
        return isAt(0);
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        return isAt(rows.size() + 1);
    }

    @Override
    public boolean isFirst() throws SQLException {
        return isAt(1);
    }

    @Override
    public boolean isLast() throws SQLException {
        return isAt(rows.size());
    }

    /** Whether the cursor is at {@code where} (0 before the first row, n + 1 after the last) of rows that are there: JDBC's is* answer false without rows. */
    private boolean isAt(int where) throws SQLException {
        checkOpen();
        return position == where && rows.size() > 0;
    }

    /** The current row's number, 1 for the first; 0 when there is none. */
    @Override
    public int getRow() throws SQLException {
        checkOpen();
        return onRow() ? position : 0;
    }

    /** Any direction: it is only a hint, and this result set moves every way. */
    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != ResultSet.FETCH_FORWARD && direction != ResultSet.FETCH_REVERSE && direction != ResultSet.FETCH_UNKNOWN) {
            throw new SQLException("ResultSet.setFetchDirection: " + direction + " is not FETCH_FORWARD, FETCH_REVERSE or"
                    + " FETCH_UNKNOWN", "HY024");
        }
        fetchDirection = direction;
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return fetchDirection;
    }

    private void checkOpen() throws SQLException {
        if (delegate.isClosed()) {
            throw new SQLException("the result set is closed", "24000");
        }
    }
}
