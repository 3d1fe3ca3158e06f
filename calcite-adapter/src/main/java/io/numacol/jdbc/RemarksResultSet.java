package io.numacol.jdbc;

import io.numacol.storage.Catalog;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;

/**
 * getTables' or getColumns' rows with REMARKS as COMMENT ON set it, read from the catalog as each
 * row is: Calcite's metadata has no remarks, and the rows are its (or whatever the metadata
 * layer made of them), so only the REMARKS column is answered here, by the row's TABLE_SCHEM,
 * TABLE_NAME and, for getColumns, COLUMN_NAME.
 */
final class RemarksResultSet extends ForwardingResultSet {
    private final Catalog catalog;
    /** Whether the rows are getColumns' (a column's remark), else getTables' (a table's). */
    private final boolean columns;
    /** The REMARKS column's position, 0 when the rows have none. */
    private final int remarks;

    RemarksResultSet(ResultSet delegate, Catalog catalog, boolean columns) throws SQLException {
        super(delegate);
        this.catalog = catalog;
        this.columns = columns;
        int at = 0;
        ResultSetMetaData m = delegate.getMetaData();
        for (int i = 1; i <= m.getColumnCount(); i++) {
            if (m.getColumnLabel(i).equalsIgnoreCase("REMARKS")) {
                at = i;
            }
        }
        remarks = at;
    }

    /** The row's remark from the catalog, else the rows' own. */
    private String remark() throws SQLException {
        String schema = delegate.getString("TABLE_SCHEM");
        String table = delegate.getString("TABLE_NAME");
        String mine = schema == null || table == null ? null
                : catalog.comment(schema, table, columns ? delegate.getString("COLUMN_NAME") : null).orElse(null);
        return mine != null ? mine : delegate.getString(remarks);
    }

    @Override
    public String getString(int columnIndex) throws SQLException {
        return columnIndex == remarks ? remark() : delegate.getString(columnIndex);
    }

    @Override
    public String getString(String columnLabel) throws SQLException {
        return remarks > 0 && columnLabel.equalsIgnoreCase("REMARKS") ? remark() : delegate.getString(columnLabel);
    }

    @Override
    public Object getObject(int columnIndex) throws SQLException {
        return columnIndex == remarks ? remark() : delegate.getObject(columnIndex);
    }

    @Override
    public Object getObject(String columnLabel) throws SQLException {
        return remarks > 0 && columnLabel.equalsIgnoreCase("REMARKS") ? remark() : delegate.getObject(columnLabel);
    }
}
