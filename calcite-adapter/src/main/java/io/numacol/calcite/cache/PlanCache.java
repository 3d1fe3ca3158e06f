package io.numacol.calcite.cache;

import io.numacol.calcite.plan.rewrite.NullComparisons;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.numacol.database.Database;
import io.numacol.storage.CatalogView;
import io.numacol.storage.Table;
import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.sql.parser.SqlParser;

import java.lang.reflect.Type;
import java.time.ZoneId;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * Prepared statements of a database, by the normalized text of their queries ({@link
 * SqlTemplate}), shared by its connections: a query whose template was planned before runs that
 * plan with its own literals, without validating, planning or generating code again. At most
 * {@link #ENTRIES} plans and {@link #BYTES} bytes of them (an estimate: {@link #planned}), the
 * least useful evicted first (Caffeine's W-TinyLFU). A plan is used only while the catalog
 * is at the version it was planned at (any CREATE, DROP or ALTER of a table or view plans
 * again) and while each table it reads holds within twice the rows it held then (join orders and
 * build sides follow row counts). Placement needs no check: a plan takes its tasks' nodes from
 * the parts at each execution.
 */
public final class PlanCache {
    /** Plans kept per database. */
    public static final int ENTRIES = 1000;
    /** Estimated bytes of plans kept per database. */
    public static final long BYTES = 64L << 20;
    /** An operator's estimated bytes in a plan: its node, row type, expressions and numacol's compiled form. */
    private static final long OPERATOR_BYTES = 4 << 10;
    /** Estimated bytes of the Java code Calcite generates and compiles for a plan numacol does not run whole. */
    private static final long CODE_BYTES = 64 << 10;
    /** Row counts below this are taken for this many: a small table's plan does not change with its size. */
    private static final long SMALL_TABLE = 1000;

    /**
     * The caches of the open databases, each dropped when its database closes ({@link #close}): a
     * plan holds its database (through its tables), so a weak map would never let one go.
     */
    private static final IdentityHashMap<Database, PlanCache> CACHES = new IdentityHashMap<>();
    /** What the statements being planned on this thread read and hold. */
    private static final ThreadLocal<Planning> PLANNING = new ThreadLocal<>();

    private final Database database;
    private final Cache<Key, Entry> plans;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder evictions = new LongAdder();
    private final int capacity;
    private final long capacityBytes;
    /** The catalog version whose plans alone are kept. */
    private volatile long swept = -1;

    /** A cache of its own, of at most {@code entries} plans and {@code bytes} (tests; a database's is {@link #of}). */
    static PlanCache create(Database database, int entries, long bytes) {
        return new PlanCache(database, entries, bytes);
    }

    /**
     * One weight bounds both: a plan weighs its estimated bytes, but at least {@code bytes /
     * entries}, so that no more than {@code entries} fit however small they are.
     */
    private PlanCache(Database database, int entries, long bytes) {
        this.database = database;
        this.capacity = entries;
        this.capacityBytes = bytes;
        long least = Math.max(1, Math.ceilDiv(bytes, entries));
        this.plans = Caffeine.newBuilder().maximumWeight(bytes)
                .weigher((Key k, Entry e) -> (int) Math.min(Integer.MAX_VALUE, Math.max(least, e.bytes())))
                .removalListener((Key k, Entry e, RemovalCause cause) -> {
                    if (cause.wasEvicted()) {
                        evictions.increment();
                    }
                })
                .executor(Runnable::run) // removal counted before the put that caused it returns
                .build();
    }

    /** The cache of {@code database}'s plans. */
    public static PlanCache of(Database database) {
        synchronized (CACHES) {
            return CACHES.computeIfAbsent(database, db -> new PlanCache(db, ENTRIES, BYTES));
        }
    }

    /** Drops {@code database}'s cache and its plans: called as the database closes. */
    public static void close(Database database) {
        PlanCache cache;
        synchronized (CACHES) {
            cache = CACHES.remove(database);
        }
        if (cache != null) {
            cache.plans.invalidateAll();
        }
    }

    /** How many databases have a cache now (tests). */
    static int databases() {
        synchronized (CACHES) {
            return CACHES.size();
        }
    }

    /** Called as a statement being planned reads {@code table}: its plan depends on the table's size. */
    public static void reading(Table table) {
        Planning planning = PLANNING.get();
        if (planning != null) {
            planning.tables.putIfAbsent(table, table.rowCount());
        }
    }

    /**
     * The values of the parameters of the template being planned on this thread, or null when no
     * template is: the first statement's literals, which estimates may read as the statement's
     * own text would have given them ("bind peeking"). The plan is kept for the template's other
     * values too; they change its estimates, never its answers.
     */
    public static List<Object> peekedValues() {
        Planning planning = PLANNING.get();
        return planning == null ? null : planning.values;
    }

    /**
     * Called as a statement's plan is made ready to run: what it will hold in the cache, estimated
     * from its operators and whether Calcite compiled code for it ({@code compiled}).
     */
    public static void planned(RelNode root, boolean compiled) {
        Planning planning = PLANNING.get();
        if (planning != null) {
            int[] operators = {0};
            new RelVisitor() {
                @Override
                public void visit(RelNode node, int ordinal, RelNode parent) {
                    operators[0]++;
                    super.visit(node, ordinal, parent);
                }
            }.go(root);
            holding(operators[0] * OPERATOR_BYTES + (compiled ? CODE_BYTES : 0));
        }
    }

    /** Adds {@code bytes} to what the plan being made on this thread holds. */
    static void holding(long bytes) {
        Planning planning = PLANNING.get();
        if (planning != null) {
            planning.bytes += bytes;
        }
    }

    /** The tables a statement being planned read, with their row counts then, and its plan's estimated bytes. */
    private static final class Planning {
        final IdentityHashMap<Table, Long> tables = new IdentityHashMap<>();
        final List<Object> values;
        long bytes;

        Planning(List<Object> values) {
            this.values = values;
        }
    }

    /** The session's zone is part of a plan: Calcite folds casts between TIMESTAMP and instants with it. */
    private record Key(String sql, List<String> schemaPath, ZoneId zone, long maxRowCount, Type elementType) {
    }

    /** A plan, or null for a template that did not plan (the text as written is planned each time). */
    private record Entry(CalciteSignature<?> signature, long catalogVersion, Map<Table, Long> rowCounts, long bytes) {
    }

    /**
     * The prepared statement of {@code sql}: cached, or made by {@code prepare} from its template
     * (or from {@code sql} itself where it has none, or where its template fails to plan: the
     * errors a user sees are those of the text written).
     */
    @SuppressWarnings("unchecked")
    public <T> CalciteSignature<T> signature(String sql, SqlParser.Config parser, List<String> schemaPath, ZoneId zone, long maxRowCount,
                                             Type elementType, Function<String, CalciteSignature<T>> prepare) {
        SqlTemplate template = SqlTemplate.of(sql, parser);
        if (template == null) {
            return prepare.apply(sql);
        }
        Key key = new Key(template.sql(), List.copyOf(schemaPath), zone, maxRowCount, elementType);
        dropStale();
        Entry entry = plans.getIfPresent(key);
        if (entry != null && fresh(entry)) {
            hits.increment();
            return entry.signature() == null ? prepare.apply(sql) : bind((CalciteSignature<T>) entry.signature(), sql, template.values());
        }
        misses.increment();
        long version = statementVersion();
        Planning outer = PLANNING.get();
        Planning planning = new Planning(template.values());
        PLANNING.set(planning);
        CalciteSignature<T> planned;
        try {
            planned = prepare.apply(template.sql());
        } catch (RuntimeException e) {
            if (template.values().isEmpty()) {
                throw e;
            }
            planned = null;
        } catch (AssertionError e) {
            // NullComparisons' defect where a parameter stands for a literal: the text as written plans
            if (template.values().isEmpty() || !NullComparisons.isNullComparisonInPredicates(e)) {
                throw e;
            }
            planned = null;
        } finally {
            if (outer == null) {
                PLANNING.remove();
            } else {
                PLANNING.set(outer);
                outer.tables.putAll(planning.tables);
                outer.bytes += planning.bytes;
            }
        }
        // a template with values has those as its only parameters; one without is the statement's own text
        boolean fits = planned != null && planned.statementType == Meta.StatementType.SELECT
                && (template.values().isEmpty() || planned.parameters.size() == template.values().size());
        if (database.catalog().version() == version) {
            long bytes = 2L * (key.sql().length() + sql.length()) + (fits ? planning.bytes : 0);
            plans.put(key, new Entry(fits ? planned : null, version, Map.copyOf(planning.tables), bytes));
        }
        if (fits) {
            return bind(planned, sql, template.values());
        }
        return planned != null && template.values().isEmpty() ? planned : prepare.apply(sql); // the text itself planned once
    }

    /**
     * Removes the plans of an older catalog once it changed: a plan holds the tables it read, and
     * a dropped table's memory must not wait for the plan's eviction.
     */
    private void dropStale() {
        long version = database.catalog().version();
        if (version != swept) {
            swept = version;
            plans.asMap().values().removeIf(e -> e.catalogVersion() != version);
        }
    }

    /** The catalog version the statement plans against: its view's (see {@link CatalogView}), else the current one. */
    private long statementVersion() {
        CatalogView view = CatalogView.current(database.catalog());
        return view == null ? database.catalog().version() : view.version();
    }

    private boolean fresh(Entry entry) {
        if (entry.catalogVersion() != statementVersion()) {
            return false;
        }
        for (Map.Entry<Table, Long> e : entry.rowCounts().entrySet()) {
            long then = Math.max(SMALL_TABLE, e.getValue());
            long now = Math.max(SMALL_TABLE, e.getKey().rowCount());
            if (now > 2 * then || then > 2 * now) {
                return false;
            }
        }
        return true;
    }

    /** {@code template}'s plan run with {@code values} for its parameters, as the statement {@code sql} without any. */
    private static <T> CalciteSignature<T> bind(CalciteSignature<T> template, String sql, List<Object> values) {
        if (values.isEmpty()) {
            return template;
        }
        return new CalciteSignature<>(sql, List.of(), template.internalParameters, template.rowType,
                template.columns, template.cursorFactory, template.rootSchema, template.getCollationList(), -1, null,
                template.statementType) {
            @Override
            public Enumerable<T> enumerable(DataContext root) {
                return template.enumerable(new BoundParameters(root, values));
            }
        };
    }


    /** Plans held now. */
    public long entries() {
        plans.cleanUp();
        return plans.estimatedSize();
    }

    /** Estimated bytes of the plans held now, each counted at least at its share of the entries' bound. */
    public long bytes() {
        plans.cleanUp();
        return plans.policy().eviction().orElseThrow().weightedSize().orElse(0);
    }

    /** Plans held at most. */
    public int capacity() {
        return capacity;
    }

    public long capacityBytes() {
        return capacityBytes;
    }

    public long hits() {
        return hits.sum();
    }

    public long misses() {
        return misses.sum();
    }

    public long evictions() {
        return evictions.sum();
    }
}
