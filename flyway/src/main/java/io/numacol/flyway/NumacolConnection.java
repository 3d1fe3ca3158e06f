package io.numacol.flyway;

import org.flywaydb.core.internal.database.base.Connection;

import java.sql.SQLException;

/** A JDBC connection to numacol as Flyway uses it: its current schema is the JDBC connection's ({@code SET SCHEMA}). */
final class NumacolConnection extends Connection<NumacolDatabase> {

    NumacolConnection(NumacolDatabase database, java.sql.Connection connection) {
        super(database, connection);
    }

    @Override
    protected String getCurrentSchemaNameOrSearchPath() throws SQLException {
        return getJdbcConnection().getSchema();
    }

    @Override
    protected void doChangeCurrentSchemaOrSearchPathTo(String schema) throws SQLException {
        getJdbcConnection().setSchema(schema);
    }

    @Override
    public NumacolSchema getSchema(String name) {
        return new NumacolSchema(jdbcTemplate, database, name);
    }
}
