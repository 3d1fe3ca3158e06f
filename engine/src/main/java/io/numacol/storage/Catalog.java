package io.numacol.storage;

import io.numacol.memory.NumaMemory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The schemas of one database, and in each its tables, views and the indexes named on its
 * tables, by name (ignoring case). Schema {@link #MAIN} always exists; the methods without a
 * schema name mean it.
 */
public final class Catalog {
    /** The schema a database starts with, which cannot be dropped. */
    public static final String MAIN = "main";

    private final NumaMemory memory;
    /** Each schema's name as created, by its key; changed under this catalog's lock. */
    private final ConcurrentHashMap<String, String> schemas = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Key, Table> tables = new ConcurrentHashMap<>();
    /** Changed under this catalog's lock, with the table they name, so no index outlives its table. */
    private final ConcurrentHashMap<Key, IndexDef> indexes = new ConcurrentHashMap<>();
    /** Tables and views share a schema's name space: changed under this catalog's lock. */
    private final ConcurrentHashMap<Key, ViewDef> views = new ConcurrentHashMap<>();
    /** CREATE SEQUENCE's, in the tables' name space as PostgreSQL's relations: changed under this catalog's lock. */
    private final ConcurrentHashMap<Key, NamedSequence> sequences = new ConcurrentHashMap<>();
    /** COMMENT ON's texts, by table key and column key (null for the table's own): changed under this catalog's lock, with their table. */
    private final ConcurrentHashMap<CommentKey, CommentDef> comments = new ConcurrentHashMap<>();
    /** Counts changes of the schemas, tables and views, so that what was derived from them knows when to derive again. */
    private final AtomicLong version = new AtomicLong();
    /** The commit timestamps of the tables' data, and its registered readers. */
    private final CommitClock clock = new CommitClock();
    /** How many open {@link CatalogView}s began at each version; under this catalog's lock. */
    private final TreeMap<Long, Integer> readers = new TreeMap<>();
    /**
     * Dropped tables whose parts an open view may still read; under this catalog's lock.
     */
    private final List<Table> retired = new ArrayList<>();
    /** Compiles the tables' CHECK constraints; registered by the SQL layer, null until then. */
    private volatile CheckCompiler checkCompiler;
    /** What {@link #beginRead()} shows at {@link #viewVersion}: rebuilt once per catalog version, not per statement. */
    private List<Table> viewTables = List.of();
    private List<ViewDef> viewViews = List.of();
    private long viewVersion = -1;

    /** An object's place in the catalog: its schema's and its own name, case folded. */
    private record Key(String schema, String name) {
        static Key of(String schema, String name) {
            return new Key(TableSchema.key(schema), TableSchema.key(name));
        }
    }

    /** A comment's place: its table's key and its column's name, case folded (null for the table's own comment). */
    private record CommentKey(Key table, String column) {
        static CommentKey of(String schema, String table, String column) {
            return new CommentKey(Key.of(schema, table), column == null ? null : TableSchema.key(column));
        }
    }

    public Catalog(NumaMemory memory) {
        this.memory = memory;
        schemas.put(TableSchema.key(MAIN), MAIN);
    }

    public NumaMemory memory() {
        return memory;
    }

    /** How messages name an object of {@code schema}: by its name in {@link #MAIN}, as {@code schema.name} elsewhere. */
    public static String displayName(String schema, String name) {
        return sameSchema(schema, MAIN) ? name : schema + "." + name;
    }

    /** Creates an empty schema. */
    public synchronized void createSchema(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a schema needs a name");
        }
        if (schemas.putIfAbsent(TableSchema.key(name), name) != null) {
            throw new IllegalArgumentException("schema " + name + " already exists");
        }
        version.incrementAndGet();
        logged();
    }

    /** The schema's name as created, if it exists. */
    public Optional<String> findSchema(String name) {
        return Optional.ofNullable(schemas.get(TableSchema.key(name)));
    }

    /** The schemas' names as created, {@link #MAIN} among them. */
    public Collection<String> schemas() {
        return schemas.values();
    }

    /**
     * Drops a schema that holds nothing (its tables and views are dropped first, as DROP SCHEMA
     * ... CASCADE does); {@link #MAIN} is never dropped.
     */
    public synchronized void dropSchema(String name) {
        String spelled = schema(name);
        if (sameSchema(spelled, MAIN)) {
            throw new IllegalArgumentException("schema " + MAIN + " cannot be dropped: it is where a session starts");
        }
        List<String> held = new ArrayList<>();
        tables.values().stream().filter(t -> sameSchema(t.schemaName(), name)).forEach(t -> held.add("table " + t.name()));
        views.values().stream().filter(v -> sameSchema(v.schema(), name)).forEach(v -> held.add("view " + v.name()));
        sequences.values().stream().filter(q -> sameSchema(q.def().schema(), name)).forEach(q -> held.add("sequence " + q.def().name()));
        if (!held.isEmpty()) {
            throw new IllegalArgumentException("schema " + spelled + " is not empty: it holds " + String.join(", ", held)
                    + "; DROP SCHEMA " + spelled + " CASCADE drops them with it");
        }
        schemas.remove(TableSchema.key(name));
        version.incrementAndGet();
        logged();
    }

    /** The schema's name as created. */
    private String schema(String name) {
        String spelled = schemas.get(TableSchema.key(name));
        if (spelled == null) {
            throw new IllegalArgumentException("schema " + name + " does not exist");
        }
        return spelled;
    }

    private static boolean sameSchema(String a, String b) {
        return TableSchema.key(a).equals(TableSchema.key(b));
    }

    public Table create(String name, TableSchema schema) {
        return create(MAIN, name, schema);
    }

    /**
     * Creates an empty table. Its CHECK constraints are compiled first when a {@link
     * CheckCompiler} is registered, so a check that cannot run creates nothing (a file database
     * read back creates its tables before the SQL layer registers one: they compile at their first
     * new row).
     */
    public Table create(String schemaName, String name, TableSchema schema) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a table needs a name");
        }
        RowCheck checks = compiledChecks(schema);
        synchronized (this) {
            String inSchema = schema(schemaName);
            Key key = Key.of(inSchema, name);
            if (views.containsKey(key)) {
                throw new IllegalArgumentException("a view named " + displayName(inSchema, name) + " already exists");
            }
            if (sequences.containsKey(key)) {
                throw new IllegalArgumentException("a sequence named " + displayName(inSchema, name) + " already exists");
            }
            if (tables.containsKey(key)) {
                throw new IllegalArgumentException("table " + displayName(inSchema, name) + " already exists");
            }
            Table table = new Table(this, inSchema, name, schema, memory, checks);
            tables.put(key, table);
            version.incrementAndGet();
            logged();
            return table;
        }
    }

    /**
     * A table of {@code schemaName} that is not in the catalog (yet): what {@link #replace} puts in
     * another's place. Its CHECK constraints are compiled as {@link #create} compiles them.
     */
    public Table detached(String schemaName, String name, TableSchema schema) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a table needs a name");
        }
        return new Table(this, schema(schemaName), name, schema, memory, compiledChecks(schema));
    }

    /**
     * Registers what compiles the tables' CHECK constraints (the SQL layer does, when it opens the
     * database). Until one is, rows of a table with checks are refused.
     */
    public void checkCompiler(CheckCompiler compiler) {
        this.checkCompiler = compiler;
    }

    /** The registered {@link CheckCompiler}, or null. */
    public CheckCompiler checkCompiler() {
        return checkCompiler;
    }

    /** {@code schema}'s checks compiled, or null when it has none or no compiler is registered. */
    private RowCheck compiledChecks(TableSchema schema) {
        CheckCompiler compiler = checkCompiler;
        return schema.checks().isEmpty() || compiler == null ? null : compiler.compile(schema);
    }

    /**
     * Puts {@code replacement} (from {@link #detached}, of the same schema) in the place of {@code
     * old} at once, under the replacement's name, and drops {@code old}. The indexes of {@code old}
     * follow it, their columns named as {@code column} renames them; one on a column it maps to
     * null is dropped.
     */
    public void replace(Table old, Table replacement, UnaryOperator<String> column) {
        if (!sameSchema(old.schemaName(), replacement.schemaName())) {
            throw new IllegalArgumentException("table " + old.displayName() + " cannot move to schema " + replacement.schemaName());
        }
        long droppedAt;
        synchronized (this) {
            Key from = Key.of(old.schemaName(), old.name());
            if (tables.get(from) != old) {
                throw new IllegalArgumentException("table " + old.displayName() + " changed meanwhile");
            }
            Key to = Key.of(replacement.schemaName(), replacement.name());
            if (!to.equals(from)) {
                if (views.containsKey(to)) {
                    throw new IllegalArgumentException("a view named " + replacement.displayName() + " already exists");
                }
                if (tables.containsKey(to)) {
                    throw new IllegalArgumentException("table " + replacement.displayName() + " already exists");
                }
            }
            tables.remove(from);
            tables.put(to, replacement);
            droppedAt = version.incrementAndGet();
            for (IndexDef ix : List.copyOf(indexes.values())) {
                if (Key.of(ix.schema(), ix.table()).equals(from)) {
                    indexes.remove(Key.of(ix.schema(), ix.name()));
                    List<String> columns = ix.columns().stream().map(column).toList();
                    if (columns.stream().allMatch(c -> c != null && replacement.schema().indexOf(c) >= 0)) {
                        indexes.put(Key.of(ix.schema(), ix.name()),
                                new IndexDef(ix.schema(), ix.name(), replacement.name(), columns, ix.unique()));
                    }
                }
            }
            for (CommentDef c : List.copyOf(comments.values())) {
                if (Key.of(c.schema(), c.table()).equals(from)) {
                    comments.remove(CommentKey.of(c.schema(), c.table(), c.column()));
                    String renamed = c.column() == null ? null : column.apply(c.column());
                    int at = renamed == null ? -1 : replacement.schema().indexOf(renamed);
                    if (c.column() == null || at >= 0) {
                        String spelled = at >= 0 ? replacement.schema().column(at).name() : null;
                        comments.put(CommentKey.of(c.schema(), replacement.name(), spelled),
                                new CommentDef(c.schema(), replacement.name(), spelled, c.text()));
                    }
                }
            }
            logged();
        }
        old.drop(droppedAt);
    }

    /** Records a change that plans depend on besides the tables and views (a table's placement): plans made before are not used again. */
    public synchronized void changed() {
        version.incrementAndGet();
        logged();
    }

    /** A number that changes whenever a schema, table or view is created, dropped, altered or replaced, or {@link #changed}. */
    public long version() {
        return version.get();
    }

    public Optional<Table> find(String name) {
        return find(MAIN, name);
    }

    public Optional<Table> find(String schemaName, String name) {
        return Optional.ofNullable(tables.get(Key.of(schemaName, name)));
    }

    public Table get(String name) {
        return get(MAIN, name);
    }

    public Table get(String schemaName, String name) {
        return find(schemaName, name).orElseThrow(() -> new IllegalArgumentException(
                "table " + displayName(schemaName, name) + " does not exist"));
    }

    /** Removes a table of {@link #MAIN} and its indexes (see {@link #drop(Table)}). */
    public void drop(String name) {
        drop(get(name));
    }

    /** Removes a table and its indexes; its memory is freed once no reader holds a snapshot of it. */
    public void drop(Table table) {
        long droppedAt;
        synchronized (this) {
            Key key = Key.of(table.schemaName(), table.name());
            if (!tables.remove(key, table)) {
                throw new IllegalArgumentException("table " + table.displayName() + " does not exist");
            }
            droppedAt = version.incrementAndGet();
            indexes.values().removeIf(ix -> Key.of(ix.schema(), ix.table()).equals(key));
            comments.keySet().removeIf(c -> c.table().equals(key));
            logged();
        }
        table.drop(droppedAt);
    }

    /**
     * A view of the catalog as it is now, for one statement: until it closes, a table dropped or
     * replaced after this moment stays readable through it (see {@link CatalogView}).
     */
    public CatalogView beginRead() {
        return beginRead(null);
    }

    /**
     * {@link #beginRead()} for the statements of {@code transaction} (null: one statement's own):
     * the view reads the tables' data as of a read timestamp registered with it.
     */
    synchronized CatalogView beginRead(Transaction transaction) {
        long now = version.get();
        if (now != viewVersion) {
            viewTables = List.copyOf(tables.values());
            viewViews = List.copyOf(views.values());
            viewVersion = now;
        }
        readers.merge(now, 1, Integer::sum);
        return new CatalogView(this, now, viewTables, viewViews, clock.beginRead(), transaction);
    }

    /** Told of each table a transaction's commit changed (the database merges its small parts). */
    private volatile Consumer<Table> committed = t -> { };

    /** Sets what is told of each table a transaction's commit changed. */
    public void onCommit(Consumer<Table> listener) {
        committed = listener;
    }

    void committed(Table table) {
        committed.accept(table);
    }

    /** The commit timestamps of the tables' data. */
    CommitClock clock() {
        return clock;
    }

    /** Starts a transaction that reads the data as {@code isolation} says and commits its changes at once. */
    public Transaction begin(Transaction.Isolation isolation) {
        return new Transaction(this, isolation);
    }

    /** A view closed: the dropped tables only older views could read are freed. */
    void endRead(CatalogView view) {
        List<Table> free = new ArrayList<>();
        synchronized (this) {
            readers.computeIfPresent(view.version(), (v, n) -> n == 1 ? null : n - 1);
            reclaim(free);
        }
        free.forEach(Table::releaseParts);
        clock.endRead(view.readTimestamp());
    }

    /**
     * Called by a table as it is dropped (at {@link Table#droppedAt()}): its parts are freed now if
     * no open view began before the drop, else when the last such view closes.
     */
    void retire(Table table) {
        List<Table> free = new ArrayList<>();
        synchronized (this) {
            retired.add(table);
            reclaim(free);
        }
        free.forEach(Table::releaseParts);
    }

    /** Moves to {@code free} every retired table no open view can read (none began before its drop). */
    private void reclaim(List<Table> free) {
        long oldest = readers.isEmpty() ? Long.MAX_VALUE : readers.firstKey();
        retired.removeIf(t -> {
            boolean unread = t.droppedAt() <= oldest;
            if (unread) {
                free.add(t);
            }
            return unread;
        });
    }

    /** Dropped tables whose memory waits for an open view: for reports and tests. */
    public synchronized int retiredTables() {
        return retired.size();
    }

    /**
     * Frees every retired table now, open views or not: the database is closing, and a reader
     * still at work fails as one whose database closed.
     */
    public void releaseRetired() {
        List<Table> free;
        synchronized (this) {
            free = List.copyOf(retired);
            retired.clear();
        }
        free.forEach(Table::releaseParts);
    }

    /**
     * Records an index on existing columns of an existing table, in the table's schema ({@link
     * IndexDef} says why it is not built). {@code columns} may be spelled in any case; the
     * definition keeps the table's.
     */
    public synchronized IndexDef createIndex(String name, Table table, List<String> columns, boolean unique) {
        if (tables.get(Key.of(table.schemaName(), table.name())) != table) {
            throw new IllegalArgumentException("table " + table.displayName() + " does not exist");
        }
        if (indexes.containsKey(Key.of(table.schemaName(), name))) {
            throw new IllegalArgumentException("index " + displayName(table.schemaName(), name) + " already exists");
        }
        List<String> spelled = new ArrayList<>();
        for (String column : columns) {
            int i = table.schema().indexOf(column);
            if (i < 0) {
                throw new IllegalArgumentException("index " + name + ": table " + table.displayName() + " has no column " + column);
            }
            String c = table.schema().column(i).name();
            if (spelled.contains(c)) {
                throw new IllegalArgumentException("index " + name + " names column " + c + " twice");
            }
            spelled.add(c);
        }
        IndexDef def = new IndexDef(table.schemaName(), name, table.name(), spelled, unique);
        indexes.put(Key.of(table.schemaName(), name), def);
        logged();
        return def;
    }

    /**
     * Sets what COMMENT ON says of {@code table} ({@code column} null) or of its column {@code
     * column} (any case; kept as the table spells it); a null {@code text} removes it.
     */
    public synchronized void comment(Table table, String column, String text) {
        if (tables.get(Key.of(table.schemaName(), table.name())) != table) {
            throw new IllegalArgumentException("table " + table.displayName() + " does not exist");
        }
        String spelled = null;
        if (column != null) {
            int i = table.schema().indexOf(column);
            if (i < 0) {
                throw new IllegalArgumentException("column " + column + " of table " + table.displayName() + " does not exist");
            }
            spelled = table.schema().column(i).name();
        }
        CommentKey key = CommentKey.of(table.schemaName(), table.name(), spelled);
        if (text == null) {
            comments.remove(key);
        } else {
            comments.put(key, new CommentDef(table.schemaName(), table.name(), spelled, text));
        }
        logged();
    }

    /** What COMMENT ON said of the table ({@code column} null) or of its column, any case. */
    public Optional<String> comment(String schemaName, String table, String column) {
        return Optional.ofNullable(comments.get(CommentKey.of(schemaName, table, column))).map(CommentDef::text);
    }

    public Collection<CommentDef> comments() {
        return comments.values();
    }

    public Optional<IndexDef> findIndex(String schemaName, String name) {
        return Optional.ofNullable(indexes.get(Key.of(schemaName, name)));
    }

    public synchronized void dropIndex(String schemaName, String name) {
        if (indexes.remove(Key.of(schemaName, name)) == null) {
            throw new IllegalArgumentException("index " + displayName(schemaName, name) + " does not exist");
        }
        logged();
    }

    public Collection<IndexDef> indexes() {
        return indexes.values();
    }

    /** Records a view (the SQL layer checked its query); OR REPLACE replaces a view, never a table. */
    public synchronized ViewDef createView(ViewDef view, boolean orReplace) {
        String inSchema = schema(view.schema());
        Key key = Key.of(inSchema, view.name());
        if (tables.containsKey(key)) {
            throw new IllegalArgumentException("a table named " + displayName(inSchema, view.name()) + " already exists");
        }
        if (sequences.containsKey(key)) {
            throw new IllegalArgumentException("a sequence named " + displayName(inSchema, view.name()) + " already exists");
        }
        if (!orReplace && views.containsKey(key)) {
            throw new IllegalArgumentException("view " + displayName(inSchema, view.name()) + " already exists");
        }
        ViewDef spelled = new ViewDef(inSchema, view.name(), view.sql(), view.columns(), view.resolvedIn());
        views.put(key, spelled);
        version.incrementAndGet();
        logged();
        return spelled;
    }

    public Optional<ViewDef> findView(String schemaName, String name) {
        return Optional.ofNullable(views.get(Key.of(schemaName, name)));
    }

    public synchronized void dropView(String schemaName, String name) {
        version.incrementAndGet();
        if (views.remove(Key.of(schemaName, name)) == null) {
            throw new IllegalArgumentException("view " + displayName(schemaName, name) + " does not exist");
        }
        logged();
    }

    /**
     * Records a sequence, in the name space of tables and views, its counter at {@code at} (a new
     * one's at its start).
     */
    public synchronized NamedSequence createSequence(SequenceDef def, NamedSequence.Position at) {
        String inSchema = schema(def.schema());
        Key key = Key.of(inSchema, def.name());
        String shown = displayName(inSchema, def.name());
        if (tables.containsKey(key) || views.containsKey(key)) {
            throw new IllegalArgumentException("a " + (tables.containsKey(key) ? "table" : "view") + " named " + shown + " already exists");
        }
        if (sequences.containsKey(key)) {
            throw new IllegalArgumentException("sequence " + shown + " already exists");
        }
        NamedSequence sequence = new NamedSequence(this, new SequenceDef(inSchema, def.name(), def.type(), def.start(), def.increment(),
                def.minValue(), def.maxValue(), def.cycle()), at);
        sequences.put(key, sequence);
        logged();
        return sequence;
    }

    public Optional<NamedSequence> findSequence(String schemaName, String name) {
        return Optional.ofNullable(sequences.get(Key.of(schemaName, name)));
    }

    /** Drops a sequence: a statement planned with it fails as one naming a sequence that does not exist. */
    public synchronized void dropSequence(String schemaName, String name) {
        NamedSequence gone = sequences.remove(Key.of(schemaName, name));
        if (gone == null) {
            throw new IllegalArgumentException("sequence " + displayName(schemaName, name) + " does not exist");
        }
        gone.drop();
        logged();
    }

    /** Every sequence, of every schema. */
    public Collection<NamedSequence> sequences() {
        return sequences.values();
    }

    /**
     * The sequence's next number (nextval): it is logged with its counter reserved ahead every
     * {@link NamedSequence#RESERVE} numbers, so none is given again after a crash.
     */
    public long nextval(NamedSequence sequence) {
        return sequence.next(this::loggedNow);
    }

    /** setval: the sequence gives the number after {@code value} next, logged at once. */
    public void setval(NamedSequence sequence, long value) {
        sequence.set(value, this::loggedNow);
    }

    /** Recovery: the sequence's counter where the last logged image put it. */
    public void restoreSequence(NamedSequence sequence, NamedSequence.Position at) {
        sequence.restore(at);
    }

    /** A sequence's reservation: logged as a DDL is, but no plan depends on a counter, so the version stays. */
    synchronized void loggedNow() {
        logged();
    }

    /** The catalog changed (under its monitor): a file database logs its new state before the DDL returns. */
    private void logged() {
        clock.log().catalogChanged(this);
    }

    /**
     * Sends every later commit and catalog change to {@code log} (a file database's write-ahead
     * log, attached once the database is read back).
     */
    public void attachLog(ChangeLog log) {
        clock.log(log);
    }

    /** Runs {@code body} while no commit and no other change of the catalog can happen: a checkpoint's consistent moment. */
    public void whileQuiet(Runnable body) {
        clock.underCommitLock(() -> {
            synchronized (this) {
                body.run();
            }
        });
    }

    /** Every view, of every schema. */
    public Collection<ViewDef> views() {
        return views.values();
    }

    /**
     * Checks that every row of {@code child} has its parent under {@code key}, a foreign key that
     * ALTER TABLE is about to add (the rows committed now), with the writes of both tables held
     * until the altered table holds the key ({@code Database#addForeignKey}): a commit that follows
     * is checked with it.
     *
     * @throws ForeignKeyViolationException naming a key without a parent row
     */
    public void checkReferences(Table child, TableSchema.ForeignKeyDef key) {
        clock.underCommitLock(() -> ForeignKeys.checkExisting(this, child, key));
    }

    /** Every table, of every schema. */
    public Collection<Table> tables() {
        return tables.values();
    }
}
