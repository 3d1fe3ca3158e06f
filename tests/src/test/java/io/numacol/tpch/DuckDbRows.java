package io.numacol.tpch;

import org.duckdb.DuckDBAppender;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.LocalDate;

/** Appends a generated row to DuckDB with the appender overload of each value's Java type. */
final class DuckDbRows {
    private DuckDbRows() {
    }

    static void append(DuckDBAppender appender, Object[] row) throws SQLException {
        appender.beginRow();
        for (Object value : row) {
            switch (value) {
                case Integer i -> appender.append(i.intValue());
                case Long l -> appender.append(l.longValue());
                case BigDecimal d -> appender.append(d);
                case LocalDate d -> appender.append(d);
                case String s -> appender.append(s);
                default -> throw new IllegalArgumentException("no DuckDB appender for " + value.getClass());
            }
        }
        appender.endRow();
    }
}
