package io.numacol.liquibase;

import liquibase.database.DatabaseConnection;
import liquibase.database.core.UnsupportedDatabase;
import liquibase.exception.DatabaseException;

/**
 * numacol as Liquibase sees it: Liquibase's generic database (the SQL it writes for a database it
 * has no dialect of, which numacol's PostgreSQL-like SQL runs: the migrations the tests run passed
 * with it) under numacol's own name, chosen for a connection whose product name is numacol. The
 * short name {@code numacol} is what a changeset's {@code dbms} attribute names.
 */
public class NumacolDatabase extends UnsupportedDatabase {
    /** What numacol's DatabaseMetaData.getDatabaseProductName answers. */
    static final String PRODUCT_NAME = "numacol";

    @Override
    public int getPriority() {
        return PRIORITY_DEFAULT;
    }

    @Override
    public boolean isCorrectDatabaseImplementation(DatabaseConnection connection) throws DatabaseException {
        return PRODUCT_NAME.equalsIgnoreCase(connection.getDatabaseProductName());
    }

    @Override
    public String getDefaultDriver(String url) {
        return url != null && url.startsWith("jdbc:numacol:") ? "io.numacol.jdbc.NumacolDriver" : null;
    }

    @Override
    public String getShortName() {
        return PRODUCT_NAME;
    }

    @Override
    protected String getDefaultDatabaseProductName() {
        return PRODUCT_NAME;
    }
}
