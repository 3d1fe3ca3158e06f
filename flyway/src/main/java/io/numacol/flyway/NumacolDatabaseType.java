package io.numacol.flyway;

import org.flywaydb.core.api.ResourceProvider;
import org.flywaydb.core.api.configuration.Configuration;
import org.flywaydb.core.internal.database.base.BaseDatabaseType;
import org.flywaydb.core.internal.database.base.Database;
import org.flywaydb.core.internal.jdbc.JdbcConnectionFactory;
import org.flywaydb.core.internal.jdbc.StatementInterceptor;
import org.flywaydb.core.internal.parser.Parser;
import org.flywaydb.core.internal.parser.ParsingContext;

import java.sql.Connection;
import java.sql.Types;
import java.util.Locale;

/**
 * What Flyway asks of a database plugin before it connects: which URLs and which product it
 * handles (numacol's driver names its product {@code numacol}), the driver class, and the
 * objects that do the work once connected.
 */
public final class NumacolDatabaseType extends BaseDatabaseType {
    /** The prefix of numacol's JDBC URLs (in memory, named in memory, or a file database). */
    static final String URL_PREFIX = "jdbc:numacol:";

    @Override
    public String getName() {
        return "numacol";
    }

    /**
     * The type Flyway binds a null parameter as (the history table's null version and checksum):
     * VARCHAR, which numacol's prepared statements take for a null of any column type.
     */
    @Override
    public int getNullType() {
        return Types.VARCHAR;
    }

    /** numacol has no read-only transactions (only read-only file databases): Flyway must not ask for one. */
    @Override
    public boolean supportsReadOnlyTransactions() {
        return false;
    }

    @Override
    public boolean handlesJDBCUrl(String url) {
        return url.startsWith(URL_PREFIX);
    }

    @Override
    public String getDriverClass(String url, ClassLoader classLoader) {
        return "io.numacol.jdbc.NumacolDriver";
    }

    /** Flyway gives the product's name with its version after it ({@code numacol 0.1}). */
    @Override
    public boolean handlesDatabaseProductNameAndVersion(String databaseProductName, String databaseProductVersion,
                                                        Connection connection) {
        return databaseProductName.toLowerCase(Locale.ROOT).startsWith("numacol");
    }

    @Override
    public Database<NumacolConnection> createDatabase(Configuration configuration, JdbcConnectionFactory jdbcConnectionFactory,
                                                      StatementInterceptor statementInterceptor) {
        return new NumacolDatabase(configuration, jdbcConnectionFactory, statementInterceptor);
    }

    @Override
    public Parser createParser(Configuration configuration, ResourceProvider resourceProvider, ParsingContext parsingContext) {
        return new NumacolParser(configuration, parsingContext);
    }
}
