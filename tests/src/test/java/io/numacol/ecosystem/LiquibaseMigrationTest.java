package io.numacol.ecosystem;

import io.numacol.liquibase.NumacolDatabase;
import liquibase.command.CommandScope;
import liquibase.command.core.UpdateCommandStep;
import liquibase.command.core.helpers.DbUrlConnectionArgumentsCommandStep;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Liquibase 5 updating a numacol file database through numacol's Liquibase database
 * (numacol-liquibase, Liquibase's generic SQL under numacol's name): a changelog of five changesets (tables with primary, unique and foreign
 * keys, a column added, rows inserted, an index), run twice, each time on a database opened
 * anew; the second run finds every changeset in DATABASECHANGELOG and applies nothing. Liquibase
 * logs through java.util.logging: neither run logs a WARNING (it logged "Unknown database:
 * numacol" before numacol-liquibase), a SEVERE record or a stack trace (it logged one for each
 * {@code call current_schema} when prepareCall was refused).
 */
class LiquibaseMigrationTest {
    @TempDir
    Path dir;

    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Logger liquibase = Logger.getLogger("liquibase");
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void listen() {
        liquibase.addHandler(handler);
    }

    @AfterEach
    void stopListening() {
        liquibase.removeHandler(handler);
    }

    private String url() {
        return "jdbc:numacol:file:" + dir.resolve("db");
    }

    private void update() throws Exception {
        try (Connection c = DriverManager.getConnection(url())) {
            Database database = DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(c));
            new CommandScope(UpdateCommandStep.COMMAND_NAME)
                    .addArgumentValue(DbUrlConnectionArgumentsCommandStep.DATABASE_ARG, database)
                    .addArgumentValue(UpdateCommandStep.CHANGELOG_FILE_ARG, "db/liquibase/changelog.xml")
                    .execute();
        }
    }

    private List<String> rows(String sql) throws SQLException {
        return MigratedRows.of(url(), sql);
    }

    @Test
    void updatesAFileDatabaseOnceAndTheSecondRunAppliesNothing() throws Exception {
        update();
        List<String> changelog = rows("SELECT ID, AUTHOR, FILENAME, ORDEREXECUTED, EXECTYPE FROM DATABASECHANGELOG ORDER BY ORDEREXECUTED");
        assertThat(changelog).containsExactly("1|numacol|db/liquibase/changelog.xml|1|EXECUTED",
                "2|numacol|db/liquibase/changelog.xml|2|EXECUTED", "3|numacol|db/liquibase/changelog.xml|3|EXECUTED",
                "4|numacol|db/liquibase/changelog.xml|4|EXECUTED", "5|numacol|db/liquibase/changelog.xml|5|EXECUTED");

        update();
        assertThat(rows("SELECT ID, AUTHOR, FILENAME, ORDEREXECUTED, EXECTYPE FROM DATABASECHANGELOG ORDER BY ORDEREXECUTED"))
                .isEqualTo(changelog);
        assertThat(rows("SELECT LOCKED FROM DATABASECHANGELOGLOCK")).containsExactly("false");

        assertThat(rows("SELECT id, name, email, joined FROM customer ORDER BY id"))
                .containsExactly("1|Ada|ada@example.org|2024-03-01", "2|Grace|null|null");
        assertThat(rows("SELECT c.name, p.amount FROM purchase p JOIN customer c ON c.id = p.customer_id")).containsExactly("Ada|12.50");
        try (Connection c = DriverManager.getConnection(url())) {
            List<String> indexes = new ArrayList<>();
            try (ResultSet rs = c.getMetaData().getIndexInfo(null, "main", "purchase", false, false)) {
                while (rs.next()) {
                    indexes.add(rs.getString("INDEX_NAME"));
                }
            }
            assertThat(indexes).contains("ix_purchase_customer");
        }
        assertThat(records).filteredOn(r -> r.getLevel().intValue() >= Level.SEVERE.intValue() || r.getThrown() != null)
                .extracting(r -> r.getLevel() + " " + r.getMessage()).isEmpty();
        // Liquibase knows numacol (numacol-liquibase): no "Unknown database" warning, and a changeset's dbms names it
        assertThat(records).filteredOn(r -> r.getLevel().intValue() >= Level.WARNING.intValue())
                .extracting(r -> r.getLevel() + " " + r.getMessage()).isEmpty();
        try (Connection c = DriverManager.getConnection(url())) {
            Database database = DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(c));
            assertThat(database).isInstanceOf(NumacolDatabase.class);
            assertThat(database.getShortName()).isEqualTo("numacol");
        }
    }
}
