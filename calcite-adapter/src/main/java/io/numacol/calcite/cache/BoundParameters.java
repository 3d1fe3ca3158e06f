package io.numacol.calcite.cache;

import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.schema.SchemaPlus;

import java.util.List;

/**
 * An execution's context with a plan's dynamic parameters ({@code ?0}, {@code ?1}, ...) set to
 * {@code values}, everything else asked of {@code root}: how a plan made once runs with other
 * values (a cached template with a statement's literals, an upsert's SET with a row's values).
 */
public record BoundParameters(DataContext root, List<Object> values) implements DataContext {
    @Override
    public SchemaPlus getRootSchema() {
        return root.getRootSchema();
    }

    @Override
    public JavaTypeFactory getTypeFactory() {
        return root.getTypeFactory();
    }

    @Override
    public QueryProvider getQueryProvider() {
        return root.getQueryProvider();
    }

    @Override
    public Object get(String name) {
        if (name.startsWith("?")) {
            try {
                int i = Integer.parseInt(name, 1, name.length(), 10);
                if (i < values.size()) {
                    return values.get(i);
                }
            } catch (NumberFormatException e) {
                // not a parameter's name
            }
        }
        return root.get(name);
    }
}
