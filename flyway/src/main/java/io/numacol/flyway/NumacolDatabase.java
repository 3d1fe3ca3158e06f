package io.numacol.flyway;

import org.flywaydb.core.api.configuration.Configuration;
import org.flywaydb.core.internal.database.base.Database;
import org.flywaydb.core.internal.database.base.Table;
import org.flywaydb.core.internal.jdbc.JdbcConnectionFactory;
import org.flywaydb.core.internal.jdbc.StatementInterceptor;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A numacol database as Flyway sees it: the schema history table in numacol's DDL, its booleans,
 * and one connection for both the history and the migrations. One connection because numacol's
 * private in-memory URL ({@code jdbc:numacol:}) opens a new database per connection, and the
 * history a second connection wrote would be in another one. DDL commits the transaction it runs
 * in, so Flyway runs DDL outside transactions, as for H2.
 */
final class NumacolDatabase extends Database<NumacolConnection> {

    NumacolDatabase(Configuration configuration, JdbcConnectionFactory jdbcConnectionFactory, StatementInterceptor statementInterceptor) {
        super(configuration, jdbcConnectionFactory, statementInterceptor);
    }

    @Override
    protected NumacolConnection doGetConnection(Connection connection) {
        return new NumacolConnection(this, connection);
    }

    /** Every numacol version runs what this plugin asks: there is none to refuse. */
    @Override
    public void ensureSupported(Configuration configuration) {
        // nothing to check
    }

    /**
     * The history table, its primary key (Flyway's {@code installed_rank}) and the index Flyway
     * gives every database, as one script that Flyway's parser splits at the semicolons; with a
     * baseline, its row is inserted between.
     */
    @Override
    @SuppressWarnings("rawtypes") // Flyway's signature
    public String getRawCreateScript(Table table, boolean baseline) {
        return "CREATE TABLE " + table + " (\n"
                + "    " + quote("installed_rank") + " INTEGER NOT NULL,\n"
                + "    " + quote("version") + " VARCHAR(50),\n"
                + "    " + quote("description") + " VARCHAR(200) NOT NULL,\n"
                + "    " + quote("type") + " VARCHAR(20) NOT NULL,\n"
                + "    " + quote("script") + " VARCHAR(1000) NOT NULL,\n"
                + "    " + quote("checksum") + " INTEGER,\n"
                + "    " + quote("installed_by") + " VARCHAR(100) NOT NULL,\n"
                + "    " + quote("installed_on") + " TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL,\n"
                + "    " + quote("execution_time") + " INTEGER NOT NULL,\n"
                + "    " + quote("success") + " BOOLEAN NOT NULL,\n"
                + "    CONSTRAINT " + quote(table.getName() + "_pk") + " PRIMARY KEY (" + quote("installed_rank") + ")\n"
                + ");\n"
                + (baseline ? getBaselineStatement(table) + ";\n" : "")
                + "CREATE INDEX " + quote(table.getSchema().getName(), table.getName() + "_s_idx") + " ON " + table
                + " (" + quote("success") + ");\n";
    }

    /** The connection's user, or none (numacol asks for no user): the history's {@code installed_by} is NOT NULL. */
    @Override
    protected String doGetCurrentUser() throws SQLException {
        String user = jdbcMetaData.getUserName();
        return user == null ? "" : user;
    }

    /** numacol commits the open transaction before a DDL statement, as H2 does. */
    @Override
    public boolean supportsDdlTransactions() {
        return false;
    }

    @Override
    public String getBooleanTrue() {
        return "TRUE";
    }

    @Override
    public String getBooleanFalse() {
        return "FALSE";
    }

    /** numacol's schemas are schemas; its one catalog holds them all. */
    @Override
    public boolean catalogIsSchema() {
        return false;
    }

    @Override
    public boolean useSingleConnection() {
        return true;
    }
}
