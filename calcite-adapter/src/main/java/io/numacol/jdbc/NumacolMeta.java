package io.numacol.jdbc;

import io.numacol.database.Database;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.jdbc.NumacolMetaBase;

import java.util.List;

/**
 * Calcite's Meta with numacol's batch path: a prepared {@code INSERT INTO t [(columns)] VALUES
 * (?, ...)} run with addBatch/executeBatch goes straight to one Appender (checked per value,
 * published at once) instead of one planned statement per row; any other batch runs as Calcite
 * runs it.
 */
final class NumacolMeta extends NumacolMetaBase {

    NumacolMeta(AvaticaConnection connection) {
        super(connection);
    }

    @Override
    public ExecuteBatchResult executeBatch(StatementHandle h, List<List<TypedValue>> parameterValueLists)
            throws NoSuchStatementException {
        Database database = NumacolDriver.openDatabase(connection);
        Signature signature = signatureOf(h);
        BatchInsert insert = signature == null || database == null ? null : BatchInsert.recognize(signature.sql, database);
        if (insert == null) {
            return super.executeBatch(h, parameterValueLists);
        }
        return new ExecuteBatchResult(insert.run(parameterValueLists));
    }
}
