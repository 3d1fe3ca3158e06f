package io.numacol.calcite.plan;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.schema.SchemaPlus;

import java.time.ZoneOffset;
import java.util.Locale;
import java.util.TimeZone;

/**
 * What code compiled from row expressions outside a plan reads (a table's CHECK constraints, a
 * RETURNING list): the row ({@code inputRecord}), the session's zone, and the statement's clock
 * (CURRENT_TIMESTAMP and its kin), as a query's DataContext gives them.
 *
 * @param values the row, in Calcite's internal form
 * @param zone   the zone the few functions that ask read
 * @param now    the statement's time, milliseconds since the epoch
 */
record RowContext(Object[] values, JavaTypeFactory types, TimeZone zone, long now) implements DataContext {
    static final TimeZone UTC = TimeZone.getTimeZone(ZoneOffset.UTC);

    @Override
    public SchemaPlus getRootSchema() {
        return null;
    }

    @Override
    public JavaTypeFactory getTypeFactory() {
        return types;
    }

    @Override
    public QueryProvider getQueryProvider() {
        return null;
    }

    @Override
    public Object get(String name) {
        return switch (name) {
            case "inputRecord" -> values;
            case "timeZone" -> zone;
            case "locale" -> Locale.ROOT;
            case "currentTimestamp", "utcTimestamp" -> now;
            case "localTimestamp" -> now + zone.getOffset(now);
            default -> null;
        };
    }
}
