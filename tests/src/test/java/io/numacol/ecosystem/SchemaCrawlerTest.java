package io.numacol.ecosystem;

import io.numacol.jdbc.NumacolDataSource;
import org.junit.jupiter.api.Test;
import schemacrawler.schema.Catalog;
import schemacrawler.schema.Column;
import schemacrawler.schema.ForeignKey;
import schemacrawler.schema.Schema;
import schemacrawler.schema.Table;
import schemacrawler.schemacrawler.InfoLevel;
import schemacrawler.schemacrawler.LimitOptionsBuilder;
import schemacrawler.schemacrawler.LoadOptionsBuilder;
import schemacrawler.schemacrawler.SchemaCrawlerOptions;
import schemacrawler.schemacrawler.SchemaCrawlerOptionsBuilder;
import schemacrawler.tools.utility.SchemaCrawlerUtility;
import us.fatehi.utility.datasource.DatabaseConnectionSources;

import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SchemaCrawler at its maximum info level, as a schema tool reads a database: it finds the
 * tables, the view, each column under its type name, the primary keys and the foreign key with
 * its rules, and logs no warning while it reads every metadata call it knows (java.util.logging,
 * which SchemaCrawler logs to, captured).
 */
class SchemaCrawlerTest {
    /**
     * Every record of WARNING or above the reading thread logs while it is attached: not another
     * thread's, such as the background work of another test's database in the same JVM.
     */
    private static final class Warnings extends Handler {
        final List<LogRecord> records = new ArrayList<>();
        private final long reader = Thread.currentThread().threadId();

        @Override
        public synchronized void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.WARNING.intValue() && r.getLongThreadID() == reader) {
                records.add(r);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }

        synchronized List<String> messages() {
            return records.stream().map(r -> r.getLoggerName() + ": " + r.getMessage()
                    + (r.getThrown() == null ? "" : " (" + r.getThrown() + ")")).toList();
        }
    }

    @Test
    void readsTheSchemaAtItsMaximumLevelWithoutAWarning() throws Exception {
        NumacolDataSource ds = new NumacolDataSource("jdbc:numacol:mem:schemacrawler");
        try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE customers (id BIGINT PRIMARY KEY, name VARCHAR(40) NOT NULL, joined DATE)");
            s.execute("CREATE TABLE orders (id BIGINT PRIMARY KEY, customer_id BIGINT NOT NULL"
                    + " REFERENCES customers (id) ON DELETE CASCADE, total DECIMAL(12, 2), placed TIMESTAMP WITH TIME ZONE)");
            s.execute("CREATE VIEW big_orders AS SELECT id, total FROM orders WHERE total > 100");
            Logger root = Logger.getLogger("");
            Level before = root.getLevel();
            Warnings warnings = new Warnings();
            root.addHandler(warnings);
            Catalog catalog;
            try {
                SchemaCrawlerOptions options = SchemaCrawlerOptionsBuilder.newSchemaCrawlerOptions()
                        .withLoadOptions(LoadOptionsBuilder.builder().withInfoLevel(InfoLevel.maximum).toOptions())
                        .withLimitOptions(LimitOptionsBuilder.builder().includeSchemas(Pattern.compile("(.*\\.)?main")).toOptions());
                catalog = SchemaCrawlerUtility.getCatalog(DatabaseConnectionSources.fromConnection(c), options);
            } finally {
                root.removeHandler(warnings);
                root.setLevel(before);
            }
            assertThat(warnings.messages()).as("warnings logged while SchemaCrawler read the metadata").isEmpty();

            List<Schema> schemas = new ArrayList<>(catalog.getSchemas());
            assertThat(schemas).extracting(Schema::getName).containsExactly("main");
            Map<String, Table> tables = catalog.getTables(schemas.getFirst()).stream()
                    .collect(Collectors.toMap(t -> t.getName().toLowerCase(java.util.Locale.ROOT), Function.identity()));
            assertThat(tables).containsOnlyKeys("customers", "orders", "big_orders");
            assertThat(tables.get("big_orders").getTableType().isView()).isTrue();

            Table orders = tables.get("orders");
            assertThat(orders.getColumns()).extracting(Column::getName).containsExactly("id", "customer_id", "total", "placed");
            assertThat(orders.getColumns()).extracting(col -> col.getColumnDataType().getName())
                    .containsExactly("BIGINT", "BIGINT", "DECIMAL", "TIMESTAMP WITH TIME ZONE");
            Column total = orders.lookupColumn("total").orElseThrow();
            assertThat(total.getSize()).isEqualTo(12);
            assertThat(total.getDecimalDigits()).isEqualTo(2);
            assertThat(orders.lookupColumn("customer_id").orElseThrow().isNullable()).isFalse();

            assertThat(orders.getPrimaryKey().getConstrainedColumns()).extracting(col -> col.getName()).containsExactly("id");
            assertThat(tables.get("customers").getPrimaryKey().getConstrainedColumns()).extracting(col -> col.getName())
                    .containsExactly("id");
            List<ForeignKey> fks = new ArrayList<>(orders.getImportedForeignKeys());
            assertThat(fks).hasSize(1);
            ForeignKey fk = fks.getFirst();
            assertThat(fk.getPrimaryKeyTable().getName()).isEqualTo("customers");
            assertThat(fk.getColumnReferences()).singleElement().satisfies(ref -> {
                assertThat(ref.getForeignKeyColumn().getName()).isEqualTo("customer_id");
                assertThat(ref.getPrimaryKeyColumn().getName()).isEqualTo("id");
            });
            assertThat(fk.getDeleteRule().name()).isEqualTo("cascade");
            assertThat(tables.get("customers").getExportedForeignKeys()).hasSize(1);
        }
    }
}
