package io.numacol.storage;

import io.numacol.storage.types.ColumnType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The FOREIGN KEY checks of a change of tables' parts ({@link TableSchema.ForeignKeyDef}), made
 * under the commit lock against what the tables will hold once the change is made: the newest
 * version of each table with the change on top. Both sides: every new row's key has a parent row,
 * and no row removed from a parent (deleted, or its key updated) leaves a child row without one.
 *
 * <p>The parent side needs no structure of its own: the keys a change removes are few, and a
 * part's Dictionary says in a binary search whether the part holds a value at all; only parts
 * that do are read (through their Index where they have one). Many keys at once (a bulk load of
 * child rows) read the other table's key columns once instead.
 */
final class ForeignKeys {
    /** Above this many keys × parts, one pass over the parts' key columns beats a search per key and part. */
    private static final int PROBES = 4096;

    private ForeignKeys() {
    }

    /**
     * What a change does to one table: {@code old} parts of its newest version give way to
     * {@code replacement} (versions of old parts with more rows deleted, and new parts).
     */
    record Change(List<TablePart> old, List<TablePart> replacement) {
    }

    /** Whether a change of {@code table} needs any check: it is in the catalog and has foreign keys, or a table names it as a parent. */
    static boolean involved(Catalog catalog, Table table) {
        if (catalog.find(table.schemaName(), table.name()).orElse(null) != table) {
            // not the catalog's table of its name: an ALTER's copy being filled (or emptied after a
            // failure) with rows that were checked as they were written, or a dropped table; a key
            // an ALTER adds is checked apart (Catalog#checkReferences)
            return false;
        }
        return !table.schema().foreignKeys().isEmpty() || !referencing(catalog, table).isEmpty();
    }

    /**
     * Checks changes about to be committed together; the caller holds the commit lock.
     *
     * @throws ForeignKeyViolationException naming the constraint and the key
     */
    static void check(Catalog catalog, Map<Table, Change> changes) {
        Function<Table, List<TablePart>> partsAfter = after(changes);
        for (Map.Entry<Table, Change> e : changes.entrySet()) {
            Table table = e.getKey();
            List<TablePart> fresh = new ArrayList<>();
            List<TablePart> from = new ArrayList<>();
            List<TablePart> versions = new ArrayList<>();
            split(e.getValue(), fresh, from, versions);
            check(catalog, table, fresh, from, versions, partsAfter);
        }
    }

    /** Each table's parts once {@code changes} are made on its newest version, unretained: under the commit lock. */
    static Function<Table, List<TablePart>> after(Map<Table, Change> changes) {
        Map<Table, List<TablePart>> after = new HashMap<>();
        return t -> after.computeIfAbsent(t, x -> {
            Change c = changes.get(x);
            return c == null ? x.parts() : applied(x.parts(), c);
        });
    }

    /**
     * Checks one statement's rows of {@code table}: the live rows of {@code fresh} parts are new,
     * and the rows live in {@code from.get(i)} but not in {@code versions.get(i)} (all of them when
     * that is null) are removed; {@code after} gives any table's parts as they will be.
     */
    static void check(Catalog catalog, Table table, List<TablePart> fresh, List<TablePart> from, List<TablePart> versions,
                      Function<Table, List<TablePart>> after) {
        TableSchema schema = table.schema();
        if (!fresh.isEmpty()) {
            for (TableSchema.ForeignKeyDef f : schema.foreignKeys()) {
                Set<List<Object>> keys = keys(fresh, null, columns(f.columns()));
                if (keys.isEmpty()) {
                    continue;
                }
                Table parent = catalog.find(f.parentSchema(), f.parentTable()).orElse(null);
                if (parent == null) {
                    throw new ForeignKeyViolationException("insert or update on table \"" + table.name()
                            + "\" violates foreign key constraint \"" + f.name() + "\": its table " + f.parentTable() + " no longer exists");
                }
                int[] parentColumns = parentColumns(parent, f);
                keys.removeAll(present(after.apply(parent), parentColumns, keys));
                if (!keys.isEmpty()) {
                    throw new ForeignKeyViolationException("insert or update on table \"" + table.name()
                            + "\" violates foreign key constraint \"" + f.name() + "\": key (" + names(schema, f.columns()) + ")="
                            + shown(schema, columns(f.columns()), keys.iterator().next()) + " is not present in table \"" + parent.name() + "\"");
                }
            }
        }
        if (from.isEmpty()) {
            return;
        }
        for (Reference r : referencing(catalog, table)) {
            int[] parentColumns = parentColumns(table, r.key());
            Set<List<Object>> removed = keys(from, versions, parentColumns);
            if (removed.isEmpty()) {
                continue;
            }
            removed.removeAll(present(after.apply(table), parentColumns, removed)); // an UPDATE that kept the key
            if (removed.isEmpty()) {
                continue;
            }
            Set<List<Object>> still = present(after.apply(r.child()), columns(r.key().columns()), removed);
            if (!still.isEmpty()) {
                throw new ForeignKeyViolationException("update or delete on table \"" + table.name()
                        + "\" violates foreign key constraint \"" + r.key().name() + "\" on table \"" + r.child().name()
                        + "\": key (" + String.join(", ", r.key().parentColumns()) + ")=" + shown(table.schema(), parentColumns, still.iterator().next())
                        + " is still referenced from table \"" + r.child().name() + "\"");
            }
        }
    }

    /**
     * Checks that every row {@code child} holds now has its parent under {@code key}, a foreign
     * key about to be added (ALTER TABLE ... ADD FOREIGN KEY); the caller holds the commit lock.
     */
    static void checkExisting(Catalog catalog, Table child, TableSchema.ForeignKeyDef key) {
        TableSchema schema = child.schema().withForeignKeys(List.of(key));
        Set<List<Object>> keys = keys(child.parts(), null, columns(key.columns()));
        if (keys.isEmpty()) {
            return;
        }
        Table parent = key.references(child.schemaName(), child.name()) ? child
                : catalog.find(key.parentSchema(), key.parentTable()).orElseThrow(() -> new ForeignKeyViolationException(
                        "foreign key constraint \"" + key.name() + "\" names table " + key.parentTable() + ", which does not exist"));
        keys.removeAll(present(parent.parts(), parentColumns(parent, key), keys));
        if (!keys.isEmpty()) {
            throw new ForeignKeyViolationException("insert or update on table \"" + child.name()
                    + "\" violates foreign key constraint \"" + key.name() + "\": key (" + names(schema, key.columns()) + ")="
                    + shown(schema, columns(key.columns()), keys.iterator().next()) + " is not present in table \""
                    + parent.name() + "\"");
        }
    }

    /** A foreign key of {@code child} naming a table as its parent. */
    record Reference(Table child, TableSchema.ForeignKeyDef key) {
    }

    /** The foreign keys that name {@code parent}, of every table in the catalog (itself included). */
    static List<Reference> referencing(Catalog catalog, Table parent) {
        List<Reference> found = new ArrayList<>();
        for (Table t : catalog.tables()) {
            for (TableSchema.ForeignKeyDef f : t.schema().foreignKeys()) {
                if (f.references(parent.schemaName(), parent.name())) {
                    found.add(new Reference(t, f));
                }
            }
        }
        return found;
    }

    /** The positions in {@code parent} of the columns {@code key} references. */
    private static int[] parentColumns(Table parent, TableSchema.ForeignKeyDef key) {
        int[] at = new int[key.parentColumns().size()];
        for (int i = 0; i < at.length; i++) {
            at[i] = parent.schema().indexOf(key.parentColumns().get(i));
            if (at[i] < 0) {
                throw new ForeignKeyViolationException("foreign key constraint \"" + key.name() + "\" references column "
                        + key.parentColumns().get(i) + ", which table " + parent.name() + " no longer has");
            }
        }
        return at;
    }

    /** {@code parts} with the change made: old parts replaced by their versions or gone, new parts at the end. */
    private static List<TablePart> applied(List<TablePart> parts, Change change) {
        List<TablePart> next = new ArrayList<>(parts);
        List<TablePart> added = new ArrayList<>(change.replacement());
        for (TablePart p : change.old()) {
            int at = next.indexOf(p);
            TablePart version = sameData(added, p);
            if (version != null) {
                added.remove(version);
            }
            if (at >= 0) {
                if (version == null) {
                    next.remove(at);
                } else {
                    next.set(at, version);
                }
            }
        }
        next.addAll(added);
        return next;
    }

    /** Splits a change into its new parts and its old parts with their versions (null: gone). */
    private static void split(Change change, List<TablePart> fresh, List<TablePart> from, List<TablePart> versions) {
        List<TablePart> added = new ArrayList<>(change.replacement());
        for (TablePart p : change.old()) {
            TablePart version = sameData(added, p);
            if (version != null) {
                added.remove(version);
            }
            from.add(p);
            versions.add(version);
        }
        fresh.addAll(added);
    }

    private static TablePart sameData(List<TablePart> parts, TablePart p) {
        for (TablePart r : parts) {
            if (r.sameData(p)) {
                return r;
            }
        }
        return null;
    }

    private static int[] columns(List<Integer> positions) {
        return positions.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The keys (stored values of {@code columns}, none NULL) of the live rows of {@code parts}, or
     * with {@code versions}: of the rows live in a part but not in its version.
     */
    private static Set<List<Object>> keys(List<TablePart> parts, List<TablePart> versions, int[] columns) {
        Set<List<Object>> keys = new LinkedHashSet<>();
        for (int i = 0; i < parts.size(); i++) {
            TablePart p = parts.get(i);
            TablePart version = versions == null ? p : versions.get(i);
            for (int r = 0; r < p.rowCount(); r++) {
                boolean wanted = versions == null ? !p.deleted().isDeleted(r)
                        : !p.deleted().isDeleted(r) && (version == null || version.deleted().isDeleted(r));
                if (wanted) {
                    List<Object> key = keyAt(p, r, columns);
                    if (key != null) {
                        keys.add(key);
                    }
                }
            }
        }
        return keys;
    }

    /** Row {@code r}'s stored values of {@code columns}, or null when one is NULL (SQL does not compare it). */
    private static List<Object> keyAt(TablePart part, int r, int[] columns) {
        Object[] key = new Object[columns.length];
        for (int c = 0; c < columns.length; c++) {
            Column column = part.column(columns[c]);
            if (column.isNull(r)) {
                return null;
            }
            key[c] = column.dictionary().stored(column.indexVector().get(r));
        }
        return Arrays.asList(key);
    }

    /** The keys of {@code wanted} that a live row of {@code parts} holds in {@code columns}. */
    private static Set<List<Object>> present(List<TablePart> parts, int[] columns, Set<List<Object>> wanted) {
        Set<List<Object>> found = new HashSet<>();
        if ((long) wanted.size() * parts.size() > PROBES) {
            for (TablePart p : parts) {
                for (int r = 0; r < p.rowCount() && found.size() < wanted.size(); r++) {
                    if (!p.deleted().isDeleted(r)) {
                        List<Object> key = keyAt(p, r, columns);
                        if (key != null && wanted.contains(key)) {
                            found.add(key);
                        }
                    }
                }
            }
            return found;
        }
        for (List<Object> key : wanted) {
            for (TablePart p : parts) {
                if (holds(p, columns, key)) {
                    found.add(key);
                    break;
                }
            }
        }
        return found;
    }

    /** Whether a live row of {@code part} holds {@code key}: the dictionaries first, then the rows of the first column's vid ({@link KeyLookup}). */
    private static boolean holds(TablePart part, int[] columns, List<Object> key) {
        int[] vids = new int[columns.length];
        for (int c = 0; c < columns.length; c++) {
            vids[c] = KeyLookup.vidOf(part.column(columns[c]).dictionary(), key.get(c));
            if (vids[c] < 0) {
                return false;
            }
        }
        for (int r : KeyLookup.positions(part.column(columns[0]), new int[] {vids[0]})) {
            if (matches(part, columns, vids, r)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(TablePart part, int[] columns, int[] vids, int r) {
        if (part.deleted().isDeleted(r)) {
            return false;
        }
        for (int c = 1; c < columns.length; c++) {
            if (part.column(columns[c]).indexVector().get(r) != vids[c]) {
                return false;
            }
        }
        return true;
    }

    private static String names(TableSchema schema, List<Integer> columns) {
        List<String> names = new ArrayList<>();
        columns.forEach(c -> names.add(schema.column(c).name()));
        return String.join(", ", names);
    }

    /** A key as SQL spells its values (a DATE as a date, not its stored day number), in parentheses. */
    private static String shown(TableSchema schema, int[] columns, List<Object> key) {
        List<String> values = new ArrayList<>();
        for (int c = 0; c < columns.length; c++) {
            ColumnType type = schema.column(columns[c]).type();
            Object value = switch (key.get(c)) {
                case Long l -> type.toJava(l);
                case Double d -> type.toJava(d);
                case String s -> type.toJava(s);
                default -> key.get(c);
            };
            values.add(String.valueOf(value));
        }
        return "(" + String.join(", ", values) + ")";
    }
}
