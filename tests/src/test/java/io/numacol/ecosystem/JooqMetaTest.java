package io.numacol.ecosystem;

import org.jooq.DSLContext;
import org.jooq.ForeignKey;
import org.jooq.Meta;
import org.jooq.Param;
import org.jooq.SQLDialect;
import org.jooq.Sequence;
import org.jooq.Table;
import org.jooq.UniqueKey;
import org.jooq.impl.DSL;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * jOOQ's {@code meta()}, which reads a schema through JDBC's metadata and, per dialect, queries of
 * the database's own catalog (under POSTGRES: {@code pg_catalog} and {@code information_schema}
 * for the UNIQUE and CHECK constraints, comments, generated columns and the sequences): the tables
 * with their columns, primary keys, unique keys, foreign keys, checks and indexes, and the
 * sequences, as declared. POSTGRES is the dialect to give jOOQ for numacol, whose SQL is
 * PostgreSQL's: under DEFAULT jOOQ reads what JDBC's metadata says (columns, keys, foreign keys,
 * indexes), not the UNIQUE constraints, checks and sequences its POSTGRES catalog queries find.
 */
class JooqMetaTest {
    @ParameterizedTest
    @EnumSource(value = SQLDialect.class, names = {"POSTGRES", "DEFAULT"})
    void metaReadsTheSchemaAsDeclared(SQLDialect dialect) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:numacol:")) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE customer (id BIGINT PRIMARY KEY, email VARCHAR(80) NOT NULL, CONSTRAINT customer_email_key UNIQUE (email))");
                s.execute("CREATE TABLE orders (id INT PRIMARY KEY, customer_id BIGINT NOT NULL REFERENCES customer (id), "
                        + "total DECIMAL(10, 2), placed DATE, CONSTRAINT orders_total_positive CHECK (total > 0))");
                s.execute("CREATE INDEX orders_placed ON orders (placed)");
                s.execute("CREATE SEQUENCE order_numbers START WITH 100 INCREMENT BY 5");
            }
            DSLContext db = DSL.using(c, dialect);
            Meta meta = db.meta();
            Table<?> customer = meta.getTables("customer").getFirst();
            Table<?> orders = meta.getTables("orders").getFirst();
            assertThat(customer.fields()).extracting(f -> f.getName()).containsExactly("id", "email");
            assertThat(orders.fields()).extracting(f -> f.getName()).containsExactly("id", "customer_id", "total", "placed");
            assertThat(orders.field("total").getDataType().precision()).isEqualTo(10);
            assertThat(orders.field("total").getDataType().scale()).isEqualTo(2);
            assertThat(customer.field("email").getDataType().nullable()).isFalse();

            UniqueKey<?> pk = customer.getPrimaryKey();
            assertThat(pk).isNotNull();
            assertThat(pk.getFields()).extracting(f -> f.getName()).containsExactly("id");
            List<? extends ForeignKey<?, ?>> references = orders.getReferences();
            assertThat(references).singleElement().satisfies(fk -> {
                assertThat(fk.getFields()).extracting(f -> f.getName()).containsExactly("customer_id");
                assertThat(fk.getKey().getTable().getName()).isEqualTo("customer");
            });
            assertThat(orders.getIndexes()).anySatisfy(ix -> assertThat(ix.getName()).isEqualTo("orders_placed"));
            if (dialect == SQLDialect.POSTGRES) {
                // what only the dialect's own catalog queries find
                assertThat(customer.getUniqueKeys()).as("the UNIQUE constraint, beside the primary key").anySatisfy(k -> {
                    assertThat(k.getName()).isEqualTo("customer_email_key");
                    assertThat(k.getFields()).extracting(f -> f.getName()).containsExactly("email");
                });
                assertThat(orders.getChecks()).singleElement().satisfies(check -> {
                    assertThat(check.getName()).isEqualTo("orders_total_positive");
                    assertThat(check.condition().toString()).contains("total").contains("0");
                });
                List<Sequence<?>> sequences = meta.getSequences();
                assertThat(sequences).as("the CREATE SEQUENCE").anySatisfy(q -> {
                    assertThat(q.getName()).isEqualTo("order_numbers");
                    assertThat(((Number) ((Param<?>) q.getStartWith()).getValue()).longValue()).isEqualTo(100);
                    assertThat(((Number) ((Param<?>) q.getIncrementBy()).getValue()).longValue()).isEqualTo(5);
                });
            }
        }
    }
}
