package io.numacol.jdbc;

import io.numacol.calcite.ddl.DdlUpdateCount;
import io.numacol.calcite.ddl.NumacolParserFactory;
import io.numacol.calcite.dml.InsertBatch;
import io.numacol.database.Database;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.jdbc.NumacolMetaBase;

import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.List;

/**
 * Calcite's Meta with numacol's batch path: a prepared {@code INSERT INTO t [(columns)] VALUES
 * (?, ...)} run with addBatch/executeBatch goes straight to one Appender (checked per value,
 * published at once) instead of one planned statement per row; any other prepared batch runs
 * entry by entry as Calcite runs it, its inserted rows published together at the end. Either
 * way a failed batch stores nothing and fails with a {@link
 * org.apache.calcite.jdbc.NumacolMetaBase.BatchFailedException} naming the entry, which the
 * statement reports as a BatchUpdateException. DDL that loads rows (COPY, CALL dbgen) answers
 * their number as its update count.
 */
final class NumacolMeta extends NumacolMetaBase {

    NumacolMeta(AvaticaConnection connection) {
        super(connection);
        connProps.setAutoCommit(true); // every statement is atomic and visible once it returns
    }

    /**
     * numacol commits each statement as it ends and holds no transaction open, so auto-commit
     * cannot be turned off: that is refused with SQLFeatureNotSupportedException, as JDBC
     * wants, rather than accepted and silently not honoured.
     */
    @Override
    public ConnectionProperties connectionSync(ConnectionHandle ch, ConnectionProperties props) {
        if (Boolean.FALSE.equals(props.isAutoCommit())) {
            throw Unchecked.<RuntimeException>sneaky(new SQLFeatureNotSupportedException(
                    "numacol commits every statement as it ends (auto-commit) and has no transactions: "
                            + "setAutoCommit(false) is not supported"));
        }
        return super.connectionSync(ch, props);
    }

    /** In auto-commit nothing is pending: commit and rollback have nothing to do, as in H2 and DuckDB. */
    @Override
    public void commit(ConnectionHandle ch) {
    }

    @Override
    public void rollback(ConnectionHandle ch) {
    }

    /** Avatica's setAutoCommit declares SQLException, Meta's connectionSync cannot: the JDBC exception passes through unchecked. */
    private static final class Unchecked {
        @SuppressWarnings({"unchecked", "TypeParameterUnusedInFormals"}) // the sneaky throw: E is inferred unchecked
        static <E extends Throwable> E sneaky(Throwable t) throws E {
            throw (E) t;
        }
    }

    /** Calcite's, except that the update count of numacol DDL is the rows it loaded, not Calcite's 0 for any DDL. */
    @Override
    public ExecuteResult prepareAndExecute(StatementHandle h, String sql, long maxRowCount, int maxRowsInFirstFrame,
                                           PrepareCallback callback) throws NoSuchStatementException {
        long[] ddlCount = {-1};
        // Calcite runs the DDL inside parseQuery, before it assigns the count to the statement.
        PrepareCallback counting = new PrepareCallback() {
            @Override
            public Object getMonitor() {
                return callback.getMonitor();
            }

            @Override
            public void clear() throws SQLException {
                callback.clear();
            }

            @Override
            public void assign(Signature signature, Frame firstFrame, long updateCount) throws SQLException {
                callback.assign(signature, firstFrame, ddlCount[0] >= 0 ? ddlCount[0] : updateCount);
            }

            @Override
            public void execute() throws SQLException {
                callback.execute();
            }
        };
        ExecuteResult result = DdlUpdateCount.capture(ddlCount,
                () -> super.prepareAndExecute(h, sql, maxRowCount, maxRowsInFirstFrame, counting));
        if (ddlCount[0] < 0) {
            return result;
        }
        MetaResultSet r = result.resultSets.getFirst();
        return new ExecuteResult(List.of(MetaResultSet.create(r.connectionId, r.statementId, r.ownStatement, r.signature,
                r.firstFrame, ddlCount[0])));
    }

    /** Calcite's, with DDL among the commands executed (see {@link DdlUpdateCount}). */
    @Override
    public ExecuteBatchResult prepareAndExecuteBatch(StatementHandle h, List<String> sqlCommands)
            throws NoSuchStatementException {
        return DdlUpdateCount.capture(new long[]{-1}, () -> super.prepareAndExecuteBatch(h, sqlCommands));
    }

    /** Calcite's, with the parameters first made to fit their types or refused (see {@link ParameterValues}). */
    @Override
    public ExecuteResult execute(StatementHandle h, List<TypedValue> parameterValues, int maxRowsInFirstFrame)
            throws NoSuchStatementException {
        Signature signature = signatureOf(h);
        if (signature != null && signature.statementType == StatementType.OTHER_DDL && NumacolParserFactory.isDdl(signature.sql)) {
            // prepared numacol DDL was only parsed (see NumacolDdlExecutor): it runs now, at each execution
            try (Statement s = connection.createStatement()) {
                return new ExecuteResult(List.of(MetaResultSet.count(h.connectionId, h.id, s.executeLargeUpdate(signature.sql))));
            } catch (SQLException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        }
        return super.execute(h, ParameterValues.fit(signature, parameterValues), maxRowsInFirstFrame);
    }

    @Override
    public ExecuteBatchResult executeBatch(StatementHandle h, List<List<TypedValue>> parameterValueLists)
            throws NoSuchStatementException {
        Database database = NumacolDriver.openDatabase(connection);
        Signature signature = signatureOf(h);
        BatchInsert insert = signature == null || database == null ? null
                : BatchInsert.recognize(signature.sql, database, defaultSchema());
        if (insert == null) {
            return plannedBatch(h, parameterValueLists);
        }
        return new ExecuteBatchResult(insert.run(signature, parameterValueLists));
    }

    /** The schema a name without one is looked up in. */
    private String defaultSchema() {
        try {
            return connection.getSchema();
        } catch (SQLException e) {
            return null; // a closed connection: the planned path reports it
        }
    }

    /**
     * Each entry planned and run as Calcite runs it, except that the rows the entries insert
     * wait in one {@link InsertBatch} and are stored together at the end: a failing entry leaves
     * every table as it was.
     */
    private ExecuteBatchResult plannedBatch(StatementHandle h, List<List<TypedValue>> entries)
            throws NoSuchStatementException {
        InsertBatch rows = new InsertBatch();
        long[] counts = new long[entries.size()];
        for (int i = 0; i < entries.size(); i++) {
            List<TypedValue> parameters = entries.get(i);
            try {
                ExecuteResult result = rows.run(() -> execute(h, parameters, -1));
                counts[i] = result.resultSets.size() == 1 ? result.resultSets.getFirst().updateCount : -1;
            } catch (RuntimeException e) {
                rows.discard();
                throw BatchInsert.entryFailed(i, entries.size(), e);
            } catch (NoSuchStatementException | Error e) {
                rows.discard();
                throw e;
            }
        }
        try {
            rows.publish();
        } catch (RuntimeException e) {
            throw BatchInsert.storeFailed(entries.size(), e);
        }
        return new ExecuteBatchResult(counts);
    }
}
