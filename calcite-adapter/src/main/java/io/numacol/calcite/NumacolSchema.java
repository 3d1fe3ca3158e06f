package io.numacol.calcite;

import io.numacol.calcite.cache.PlanCache;
import io.numacol.database.Database;
import io.numacol.storage.Catalog;
import io.numacol.storage.CatalogView;
import io.numacol.storage.Table;
import io.numacol.storage.ViewDef;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.ViewTable;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A schema of the database's catalog ({@code main}, or one CREATE SCHEMA made): its tables and
 * views, looked up live so DDL shows at once. A view is Calcite's {@link ViewTable}, expanded
 * where it is used with the names of its query read in the schema they were read in when it was
 * created; its columns are derived from its query on this connection the first time it is read
 * (and again if it is replaced).
 */
public final class NumacolSchema extends AbstractSchema {
    /** The schema every connection has, and starts in. */
    public static final String NAME = Catalog.MAIN;

    private final Database database;
    private final CalciteConnection connection;
    private final String schemaName;
    private final Planning planning;
    /** The row type of each view definition read so far, by the definition itself (a replaced view is another). */
    private final Map<ViewDef, RelDataType> viewTypes = new ConcurrentHashMap<>();
    /** The connection's last numbers of sequences (currval's): the main schema's is the connection's. */
    private final SequenceCalls.Session sequenceSession = new SequenceCalls.Session();
    /** The catalog's version the cached view types were derived at. */
    private volatile long viewTypesVersion = -1;

    public NumacolSchema(Database database, CalciteConnection connection, String schemaName, Planning planning) {
        this.database = database;
        this.connection = connection;
        this.schemaName = schemaName;
        this.planning = planning;
    }

    public Database database() {
        return database;
    }

    /** The connection's sequence state, where this is its main schema. */
    public SequenceCalls.Session sequenceSession() {
        return sequenceSession;
    }

    /** The connection's planning, which numacol's DDL plans its queries with. */
    public Planning planning() {
        return planning;
    }

    /** The database's plan cache, or null where the connection turned it off ({@code planCache=false}). */
    public PlanCache planCache() {
        return "false".equalsIgnoreCase(connection.getProperties().getProperty("planCache")) ? null : PlanCache.of(database);
    }

    @Override
    protected Map<String, org.apache.calcite.schema.Table> getTableMap() {
        Map<String, org.apache.calcite.schema.Table> map = new HashMap<>();
        // a statement's lookups all answer from the catalog as its view shows it: a table altered
        // between two lookups (validation and conversion) cannot give the planner two versions
        CatalogView view = CatalogView.current(database.catalog());
        Collection<Table> tables = view == null ? database.catalog().tables() : view.tables();
        Collection<ViewDef> views = view == null ? database.catalog().views() : view.views();
        for (Table t : tables) {
            if (t.schemaName().equalsIgnoreCase(schemaName)) {
                map.put(t.name(), new NumacolTable(database, t, planning));
            }
        }
        long version = view == null ? database.catalog().version() : view.version();
        if (version != viewTypesVersion) { // a view's columns follow the tables it reads: ALTER changes them
            viewTypes.clear();
            viewTypesVersion = version;
        }
        for (ViewDef v : views) {
            if (v.schema().equalsIgnoreCase(schemaName)) {
                map.put(v.name(), new ViewTable(Object[].class, factory -> factory.copyType(rowType(v, factory)), v.sql(),
                        List.of(v.resolvedIn()), List.of(v.schema(), v.name())));
            }
        }
        return map;
    }

    private RelDataType rowType(ViewDef view, RelDataTypeFactory factory) {
        return viewTypes.computeIfAbsent(view, v -> {
            // Inside a statement's preparation its context is at hand; elsewhere (DatabaseMetaData,
            // information_schema) the connection makes one. Either way numacol's parser reads the
            // view, which keeps the case of its column names (Calcite's own would cache them in
            // upper case, and the view's columns would no longer be found by their names).
            CalcitePrepare.Context context = CalcitePrepare.Dummy.peek();
            if (context == null) {
                context = connection.createPrepareContext();
            }
            context = PrepareContexts.of(context, context.getRootSchema(), List.of(v.resolvedIn()));
            RelDataType type = planning.rowType(context, v.sql());
            if (v.columns().isEmpty()) {
                return type;
            }
            RelDataTypeFactory.Builder renamed = factory.builder();
            List<RelDataTypeField> fields = type.getFieldList();
            for (int i = 0; i < fields.size(); i++) {
                renamed.add(v.columns().get(i), fields.get(i).getType());
            }
            return renamed.build();
        });
    }

    @Override
    public boolean isMutable() {
        return true;
    }
}
