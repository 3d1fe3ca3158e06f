package io.numacol.ecosystem;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationState;
import org.flywaydb.core.api.output.MigrateResult;
import org.flywaydb.core.api.output.RepairResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Flyway 13 migrating a numacol file database through numacol's plugin (numacol-flyway): each
 * Flyway run opens the database anew (its connections close, and the database with them), so
 * the second run reads the history the first left on disk and applies nothing. Baseline, repair
 * (of a failed migration and of a changed one), info and clean as a service's build runs them.
 */
class FlywayMigrationTest {
    @TempDir
    Path dir;

    private String url() {
        return "jdbc:numacol:file:" + dir.resolve("db");
    }

    private Path migrations() throws IOException {
        return Files.createDirectories(dir.resolve("migrations"));
    }

    private void migration(String file, String sql) throws IOException {
        Files.writeString(migrations().resolve(file), sql);
    }

    private Flyway flyway() throws IOException {
        return Flyway.configure().dataSource(url(), "", "").locations("filesystem:" + migrations()).load();
    }

    private void threeMigrations() throws IOException {
        migration("V1__people.sql", """
                CREATE TABLE people (
                    id INTEGER NOT NULL,
                    name VARCHAR(50) NOT NULL,
                    CONSTRAINT pk_people PRIMARY KEY (id)
                );
                CREATE INDEX people_name ON people (name);
                """);
        migration("V2__some_people.sql", """
                INSERT INTO people (id, name) VALUES (1, 'Ada');
                INSERT INTO people (id, name) VALUES (2, 'Grace');
                """);
        migration("V3__email.sql", """
                ALTER TABLE people ADD COLUMN email VARCHAR(100);
                UPDATE people SET email = 'ada@example.org' WHERE id = 1;
                """);
    }

    private List<String> rows(String sql) throws SQLException {
        return MigratedRows.of(url(), sql);
    }

    @Test
    void migratesAFileDatabaseOnceAndTheSecondRunAppliesNothing() throws Exception {
        threeMigrations();
        MigrateResult first = flyway().migrate();
        assertThat(first.success).isTrue();
        assertThat(first.migrationsExecuted).isEqualTo(3);
        assertThat(first.targetSchemaVersion).isEqualTo("3");

        MigrateResult second = flyway().migrate();
        assertThat(second.success).isTrue();
        assertThat(second.migrationsExecuted).isZero();
        assertThat(second.initialSchemaVersion).isEqualTo("3");

        assertThat(rows("SELECT id, name, email FROM people ORDER BY id")).containsExactly("1|Ada|ada@example.org", "2|Grace|null");
        assertThat(rows("SELECT \"version\", \"description\", \"type\", \"success\" FROM \"flyway_schema_history\" ORDER BY \"installed_rank\""))
                .containsExactly("1|people|SQL|true", "2|some people|SQL|true", "3|email|SQL|true");

        try (Connection c = DriverManager.getConnection(url())) {
            List<String> keys = new ArrayList<>();
            try (ResultSet rs = c.getMetaData().getIndexInfo(null, "main", "flyway_schema_history", false, false)) {
                while (rs.next()) {
                    keys.add(rs.getString("INDEX_NAME") + "(" + rs.getString("COLUMN_NAME") + ")");
                }
            }
            assertThat(keys).contains("flyway_schema_history_pk(installed_rank)", "flyway_schema_history_s_idx(success)");
        }

        MigrationInfo[] info = flyway().info().all();
        assertThat(Arrays.stream(info).map(MigrationInfo::getState)).containsExactly(MigrationState.SUCCESS, MigrationState.SUCCESS,
                MigrationState.SUCCESS);
        assertThat(flyway().info().current().getVersion().getVersion()).isEqualTo("3");
        assertThat(Arrays.stream(info).map(MigrationInfo::getInstalledOn)).allSatisfy(on -> assertThat(on).isNotNull());
    }

    @Test
    void baselineAdoptsADatabaseMadeWithoutFlyway() throws Exception {
        try (Connection c = DriverManager.getConnection(url()); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE people (id INTEGER PRIMARY KEY, name VARCHAR(50) NOT NULL)");
            s.execute("CREATE INDEX people_name ON people (name)");
        }
        threeMigrations();
        Flyway flyway = Flyway.configure().dataSource(url(), "", "").locations("filesystem:" + migrations())
                .baselineVersion("1").baselineDescription("made by hand").load();
        assertThat(flyway.baseline().successfullyBaselined).isTrue();

        MigrateResult migrate = flyway.migrate();
        assertThat(migrate.migrationsExecuted).isEqualTo(2); // V1 is the baseline's
        assertThat(flyway.migrate().migrationsExecuted).isZero();
        assertThat(rows("SELECT \"version\", \"type\" FROM \"flyway_schema_history\" ORDER BY \"installed_rank\""))
                .containsExactly("1|BASELINE", "2|SQL", "3|SQL");
        assertThat(Arrays.stream(flyway.info().applied()).map(MigrationInfo::getState))
                .containsExactly(MigrationState.BASELINE, MigrationState.SUCCESS, MigrationState.SUCCESS);
        assertThat(rows("SELECT COUNT(*) FROM people")).containsExactly("2");
    }

    @Test
    void repairRemovesAFailedMigrationAndRealignsAChangedOne() throws Exception {
        migration("V1__people.sql", "CREATE TABLE people (id INTEGER PRIMARY KEY, name VARCHAR(50));\n");
        migration("V2__broken.sql", "INSERT INTO people (id, name) VALUES (1, 'Ada');\nINSERT INTO no_such_table VALUES (1);\n");
        assertThatThrownBy(() -> flyway().migrate()).isInstanceOf(FlywayException.class).hasMessageContaining("no_such_table");
        // the failed migration's INSERT was rolled back with it; the history says it failed
        assertThat(rows("SELECT COUNT(*) FROM people")).containsExactly("0");
        assertThat(rows("SELECT \"version\", \"success\" FROM \"flyway_schema_history\" ORDER BY \"installed_rank\""))
                .containsExactly("1|true", "2|false");

        migration("V2__broken.sql", "INSERT INTO people (id, name) VALUES (2, 'Grace');\n");
        // the V1 script changes too (a comment): its checksum no longer matches the history's
        migration("V1__people.sql", "-- the people\nCREATE TABLE people (id INTEGER PRIMARY KEY, name VARCHAR(50));\n");
        assertThatThrownBy(() -> flyway().migrate()).isInstanceOf(FlywayException.class);

        RepairResult repair = flyway().repair();
        assertThat(repair.repairActions).contains("Removed failed migrations", "Aligned applied migration checksums");
        assertThat(rows("SELECT \"version\", \"success\" FROM \"flyway_schema_history\" ORDER BY \"installed_rank\""))
                .containsExactly("1|true");

        assertThat(flyway().migrate().migrationsExecuted).isEqualTo(1);
        assertThat(flyway().migrate().migrationsExecuted).isZero();
        assertThat(rows("SELECT id, name FROM people ORDER BY id")).containsExactly("2|Grace");
        assertThat(flyway().validateWithResult().validationSuccessful).isTrue();
    }

    @Test
    void cleanDropsTheSchemasObjectsAndTheHistory() throws Exception {
        threeMigrations();
        migration("V4__more.sql", """
                CREATE VIEW named AS SELECT name FROM people;
                CREATE SEQUENCE people_ids START WITH 10;
                """);
        assertThat(flyway().migrate().migrationsExecuted).isEqualTo(4);
        Flyway cleaner = Flyway.configure().dataSource(url(), "", "").locations("filesystem:" + migrations()).cleanDisabled(false).load();
        cleaner.clean();
        assertThat(rows("SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'")).isEmpty();
        assertThat(rows("SELECT sequence_name FROM information_schema.sequences WHERE sequence_schema = 'main'")).isEmpty();
        assertThat(cleaner.migrate().migrationsExecuted).isEqualTo(4);
        assertThat(rows("SELECT COUNT(*) FROM people")).containsExactly("2");
    }
}
