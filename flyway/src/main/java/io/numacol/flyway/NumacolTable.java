package io.numacol.flyway;

import org.flywaydb.core.internal.database.base.Table;
import org.flywaydb.core.internal.jdbc.JdbcTemplate;

import java.sql.SQLException;

/** A numacol table as Flyway uses it: the schema history table, and each table clean drops. */
final class NumacolTable extends Table<NumacolDatabase, NumacolSchema> {

    NumacolTable(JdbcTemplate jdbcTemplate, NumacolDatabase database, NumacolSchema schema, String name) {
        super(jdbcTemplate, database, schema, name);
    }

    @Override
    protected void doDrop() throws SQLException {
        jdbcTemplate.execute("DROP TABLE " + database.quote(schema.getName(), name) + " CASCADE");
    }

    @Override
    protected boolean doExists() throws SQLException {
        return exists(null, schema, name);
    }

    /**
     * Nothing to take: numacol has no table locks (no LOCK TABLE, no SELECT ... FOR UPDATE). A
     * file database is opened by one process at a time (its lock file refuses a second), and
     * Flyway migrates on one connection, so only two Flyways run at once in one JVM against one
     * database could interleave, which this plugin does not guard against.
     */
    @Override
    protected void doLock() {
        // see above
    }
}
