package io.numacol.calcite;

import io.numacol.database.Database;
import io.numacol.storage.Catalog;
import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.util.BuiltInMethod;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.impl.AbstractSchema;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A connection's root schema: besides {@code main}, {@code sys} and {@code information_schema},
 * which the connection adds, the schemas CREATE SCHEMA made, looked up live, so one that another
 * connection creates or drops shows at once. Bound to its database once the connection has it.
 */
public final class NumacolRootSchema extends AbstractSchema {
    private volatile Database database;
    private volatile CalciteConnection connection;
    private volatile Planning planning;
    /** One {@link NumacolSchema} per schema name, so a schema's derived view types are kept between lookups. */
    private final Map<String, NumacolSchema> schemas = new ConcurrentHashMap<>();

    /** Binds the root to the connection's database (until then it has no schemas of its own). */
    public void bind(Database database, CalciteConnection connection, Planning planning) {
        this.connection = connection;
        this.planning = planning;
        this.database = database;
    }

    @Override
    protected Map<String, Schema> getSubSchemaMap() {
        Database db = database;
        Map<String, Schema> map = new HashMap<>();
        if (db == null) {
            return map;
        }
        for (String name : db.catalog().schemas()) {
            if (!name.equalsIgnoreCase(Catalog.MAIN)) {
                map.put(name, schemas.computeIfAbsent(name, n -> new NumacolSchema(db, connection, n, planning)));
            }
        }
        schemas.keySet().retainAll(map.keySet()); // a dropped schema's views are not kept
        return map;
    }

    /** As Calcite's own root: generated code finds it through the DataContext, having no parent to ask. */
    @Override
    public Expression getExpression(SchemaPlus parentSchema, String name) {
        return Expressions.call(DataContext.ROOT, BuiltInMethod.DATA_CONTEXT_GET_ROOT_SCHEMA.method);
    }

    @Override
    public boolean isMutable() {
        return true;
    }
}
