package io.numacol.flyway;

import org.flywaydb.core.internal.database.base.Schema;
import org.flywaydb.core.internal.jdbc.JdbcTemplate;

import java.sql.SQLException;
import java.util.List;

/**
 * A numacol schema as Flyway uses it: whether it exists and is empty, and what {@code clean} drops,
 * all read from numacol's {@code information_schema}. Clean drops the views first (a view reading
 * a table would refuse the table's DROP), then the tables with their foreign keys (CASCADE), then
 * the sequences.
 */
final class NumacolSchema extends Schema<NumacolDatabase, NumacolTable> {

    NumacolSchema(JdbcTemplate jdbcTemplate, NumacolDatabase database, String name) {
        super(jdbcTemplate, database, name);
    }

    @Override
    protected boolean doExists() throws SQLException {
        return jdbcTemplate.queryForInt("SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = ?", name) > 0;
    }

    @Override
    protected boolean doEmpty() throws SQLException {
        return jdbcTemplate.queryForInt("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = ?", name) == 0
                && sequences().isEmpty();
    }

    @Override
    protected void doCreate() throws SQLException {
        jdbcTemplate.execute("CREATE SCHEMA " + database.quote(name));
    }

    @Override
    protected void doDrop() throws SQLException {
        jdbcTemplate.execute("DROP SCHEMA " + database.quote(name) + " CASCADE");
    }

    @Override
    protected void doClean() throws SQLException {
        for (String view : names("VIEW")) {
            jdbcTemplate.execute("DROP VIEW IF EXISTS " + database.quote(name, view) + " CASCADE");
        }
        for (NumacolTable table : doAllTables()) {
            table.drop();
        }
        for (String sequence : sequences()) {
            jdbcTemplate.execute("DROP SEQUENCE " + database.quote(name, sequence));
        }
    }

    @Override
    protected NumacolTable[] doAllTables() throws SQLException {
        return names("BASE TABLE").stream().map(this::getTable).toArray(NumacolTable[]::new);
    }

    @Override
    public NumacolTable getTable(String tableName) {
        return new NumacolTable(jdbcTemplate, database, this, tableName);
    }

    /** The names of the schema's tables of {@code type} (information_schema's: BASE TABLE or VIEW). */
    private List<String> names(String type) throws SQLException {
        return jdbcTemplate.queryForStringList("SELECT table_name FROM information_schema.tables WHERE table_schema = ?"
                + " AND table_type = ? ORDER BY table_name", name, type);
    }

    private List<String> sequences() throws SQLException {
        return jdbcTemplate.queryForStringList("SELECT sequence_name FROM information_schema.sequences WHERE sequence_schema = ?"
                + " ORDER BY sequence_name", name);
    }
}
