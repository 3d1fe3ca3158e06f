package io.numacol.calcite.dml;

import io.numacol.database.Database;
import io.numacol.database.TableChange;
import io.numacol.exec.InternalValues;
import io.numacol.storage.Column;
import io.numacol.storage.KeyLookup;
import io.numacol.storage.PartBuilder;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.types.ColumnType;
import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.util.ByteString;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * What an {@code INSERT ... ON CONFLICT} ({@link OnConflict}) does with the rows its INSERT
 * makes: they come here instead of to an appender, while the JDBC layer runs the INSERT within
 * {@link #run}. In one {@link TableChange} (the table held, the statement's view: committed rows
 * and the transaction's own changes), each row whose key an existing row or an earlier row of
 * the statement holds is skipped (DO NOTHING) or replaces the existing row by its updated version
 * (DO UPDATE: the old version deleted, the new one appended, as an UPDATE does); the others are
 * inserted. Every row is checked as an INSERT's and an UPDATE's are, and the key checks of the
 * change and of the commit still refuse any duplicate (another key, or a concurrent transaction's
 * row): the statement is kept whole or not at all.
 */
public final class Upsert {
    /** DO UPDATE's SET values and WHERE for one conflicting row. */
    public interface Assignments {
        /**
         * The values of the SET columns, in order, as Calcite's internal values, or null when the
         * WHERE does not hold; {@code existing} and {@code proposed} are rows of the table as
         * internal values, {@code root} the INSERT's context.
         */
        Object[] evaluate(Object[] existing, Object[] proposed, DataContext root);
    }

    private static final ScopedValue<Upsert> CURRENT = ScopedValue.newInstance();
    private static final ScopedValue<Boolean> PLANNING = ScopedValue.newInstance();

    private final OnConflict clause;
    private final Assignments assignments;

    public Upsert(OnConflict clause, Assignments assignments) {
        this.clause = clause;
        this.assignments = assignments;
    }

    /** Runs {@code op} with the numacol INSERT it executes, in this thread, resolving conflicts as this says. */
    public <R, X extends Throwable> R run(ScopedValue.CallableOp<R, X> op) throws X {
        return ScopedValue.where(CURRENT, this).call(op);
    }

    /** Plans {@code op}'s INSERT for an upsert: always through {@link ModifyTarget}, whose rows come here (never {@link LiteralInsert}). */
    public static <R, X extends Throwable> R planning(ScopedValue.CallableOp<R, X> op) throws X {
        return ScopedValue.where(PLANNING, Boolean.TRUE).call(op);
    }

    static boolean isPlanning() {
        return PLANNING.isBound();
    }

    /** The upsert the running INSERT belongs to, or null. */
    static Upsert current() {
        return CURRENT.isBound() ? CURRENT.get() : null;
    }

    /** A failure with PostgreSQL's SQLSTATE, which the JDBC layer finds in the cause. */
    static RuntimeException failure(String state, String message) {
        return new IllegalStateException(message, new SQLException(message, state));
    }

    /**
     * The keys a conflict of {@code clause} is looked for on in {@code schema}: the PRIMARY KEY or
     * UNIQUE constraint whose columns the target names (in any order) or that ON CONSTRAINT names;
     * every key for DO NOTHING without a target.
     *
     * @throws IllegalStateException with SQLSTATE 42P10 (no key matches), 42704 (no such
     *     constraint), 42601 (DO UPDATE without a target) or 42703 (no such column)
     */
    public static List<TableSchema.KeyDef> keys(TableSchema schema, OnConflict clause) {
        if (clause.constraint() != null) {
            for (TableSchema.KeyDef k : schema.keys()) {
                if (k.name().equalsIgnoreCase(clause.constraint())) {
                    return List.of(k);
                }
            }
            throw failure("42704", "constraint \"" + clause.constraint() + "\" for table \"" + clause.table().getLast()
                    + "\" does not exist");
        }
        if (clause.target().isEmpty()) {
            if (clause.update()) {
                throw failure("42601", "ON CONFLICT DO UPDATE requires inference specification or constraint name: "
                        + "name the key's columns, as ON CONFLICT (id) DO UPDATE SET ...");
            }
            return schema.keys();
        }
        Set<Integer> columns = new HashSet<>();
        for (String name : clause.target()) {
            int c = schema.indexOf(name);
            if (c < 0) {
                throw failure("42703", "column \"" + name + "\" of the ON CONFLICT target does not exist in table \""
                        + clause.table().getLast() + "\"");
            }
            columns.add(c);
        }
        for (TableSchema.KeyDef k : schema.keys()) {
            if (k.columns().size() == columns.size() && columns.containsAll(k.columns())) {
                return List.of(k);
            }
        }
        throw failure("42P10", "there is no unique or exclusion constraint matching the ON CONFLICT specification: ("
                + String.join(", ", clause.target()) + ") is no PRIMARY KEY or UNIQUE constraint of table \""
                + clause.table().getLast() + "\"");
    }

    /**
     * Stores {@code rows} (Java values, one per column of {@code table}, as an appender takes
     * them) as the clause says, at once; yields the rows inserted plus the rows updated.
     */
    long store(Database database, Table table, Iterable<Object[]> rows, DataContext root, Runnable checkStop) {
        TableSchema schema = table.schema();
        List<TableSchema.KeyDef> keys = keys(schema, clause);
        int[] setColumns = setColumns(schema);
        try (TableChange change = TableChange.begin(database, table, checkStop);
             TableSnapshot snapshot = table.snapshot()) { // the rows the change sees: read after it holds the table
            PartBuilder checker = table.newPart();
            List<Object[]> proposed = new ArrayList<>();
            List<Object[]> stored = new ArrayList<>();
            List<Set<Object>> wanted = new ArrayList<>();
            keys.forEach(k -> wanted.add(new HashSet<>()));
            for (Object[] row : rows) {
                Object[] s = storedForm(checker, row);
                proposed.add(row);
                stored.add(s);
                for (int k = 0; k < keys.size() && s != null; k++) {
                    Object key = keyOf(s, keys.get(k));
                    if (key != null) {
                        wanted.get(k).add(key);
                    }
                }
            }
            List<Map<Object, Long>> existing = existing(snapshot, keys, wanted);
            Map<Long, TablePart> parts = new HashMap<>();
            snapshot.parts().forEach(p -> parts.put(p.id(), p));
            List<Set<Object>> taken = new ArrayList<>(); // keys of the rows this statement inserted or updated
            keys.forEach(k -> taken.add(new HashSet<>()));
            long count = 0;
            for (int i = 0; i < proposed.size(); i++) {
                Object[] row = proposed.get(i);
                Object[] s = stored.get(i);
                if (s == null) { // values the appender refuses: it says why
                    change.insert(row);
                    continue;
                }
                if (!clause.update()) {
                    boolean conflict = false;
                    for (int k = 0; k < keys.size() && !conflict; k++) {
                        Object key = keyOf(s, keys.get(k));
                        conflict = key != null && (existing.get(k).containsKey(key) || taken.get(k).contains(key));
                    }
                    if (!conflict) {
                        insert(change, table, row, s, keys, taken);
                        count++;
                    }
                    continue;
                }
                Object key = keyOf(s, keys.getFirst());
                if (key != null && taken.getFirst().contains(key)) {
                    throw failure("21000", "ON CONFLICT DO UPDATE command cannot affect row a second time: two rows of the "
                            + "statement have the same " + describe(schema, keys.getFirst()) + "; make them distinct");
                }
                Long rowId = key == null ? null : existing.getFirst().get(key);
                if (rowId == null) {
                    insert(change, table, row, s, keys, taken);
                    count++;
                    continue;
                }
                TablePart part = parts.get(TablePart.partIdOf(rowId));
                int position = TablePart.positionOf(rowId);
                Object[] values = assignments.evaluate(internalRow(schema, part, position), internal(schema, s), root);
                if (values == null) {
                    continue; // the WHERE keeps the existing row as it is
                }
                Object[] updated = new Object[schema.size()];
                for (int c = 0; c < updated.length; c++) {
                    updated[c] = part.column(c).value(position);
                }
                for (int j = 0; j < setColumns.length; j++) {
                    TableSchema.ColumnDef column = schema.column(setColumns[j]);
                    Object v = values[j] instanceof ByteString bytes ? bytes.getBytes() : column.type().codec().fromInternal(values[j]);
                    updated[setColumns[j]] = ModifyTarget.number(column, v);
                }
                change.update(rowId, updated);
                ChangedRows.stored(table, updated);
                taken.getFirst().add(key);
                count++;
            }
            change.commit();
            return count;
        }
    }

    private static void insert(TableChange change, Table table, Object[] row, Object[] stored, List<TableSchema.KeyDef> keys,
                               List<Set<Object>> taken) {
        change.insert(row);
        ChangedRows.stored(table, row);
        for (int k = 0; k < keys.size(); k++) {
            Object key = keyOf(stored, keys.get(k));
            if (key != null) {
                taken.get(k).add(key);
            }
        }
    }

    /** The table column of each SET column. */
    private int[] setColumns(TableSchema schema) {
        int[] columns = new int[clause.setColumns().size()];
        for (int j = 0; j < columns.length; j++) {
            columns[j] = schema.indexOf(clause.setColumns().get(j));
            if (columns[j] < 0) {
                throw failure("42703", "column \"" + clause.setColumns().get(j) + "\" of relation \"" + clause.table().getLast()
                        + "\" does not exist");
            }
        }
        return columns;
    }

    /** {@code row}'s stored values (Long, Double, String), checked as an INSERT checks them; null where they are refused. */
    private static Object[] storedForm(PartBuilder checker, Object[] row) {
        try {
            return checker.convert(row);
        } catch (IllegalArgumentException e) { // NOT NULL too
            return null;
        }
    }

    /** A stored row's value of {@code key}: the value of a one-column key, a list of a wider one's; null when one is NULL. */
    private static Object keyOf(Object[] stored, TableSchema.KeyDef key) {
        List<Integer> columns = key.columns();
        if (columns.size() == 1) {
            return stored[columns.getFirst()];
        }
        Object[] values = new Object[columns.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = stored[columns.get(i)];
            if (values[i] == null) {
                return null;
            }
        }
        return Arrays.asList(values);
    }

    /**
     * For each of {@code keys}, the live rows of {@code parts} that hold one of its {@code
     * wanted} values: the value to the row's id ({@link TablePart#rowId}). The one place rows are
     * looked up by key: a scan of the key columns of the statement's parts.
     */
    private static List<Map<Object, Long>> existing(TableSnapshot snapshot, List<TableSchema.KeyDef> keys, List<Set<Object>> wanted) {
        List<TablePart> parts = snapshot.parts();
        List<Map<Object, Long>> found = new ArrayList<>();
        for (int k = 0; k < keys.size(); k++) {
            Map<Object, Long> rows = new HashMap<>();
            found.add(rows);
            if (wanted.get(k).isEmpty()) {
                continue;
            }
            List<Integer> columns = keys.get(k).columns();
            if ((long) wanted.get(k).size() * parts.size() <= PROBES) {
                // few keys: each found through the parts' dictionaries and Indexes (KeyLookup), no scan
                int[] at = columns.stream().mapToInt(Integer::intValue).toArray();
                for (Object key : wanted.get(k)) {
                    Object[] values = key instanceof List<?> l ? l.toArray() : new Object[] {key};
                    long[] ids = KeyLookup.rowIds(snapshot, at, values);
                    if (ids.length > 0) {
                        rows.put(key, ids[0]);
                    }
                }
                continue;
            }
            for (TablePart part : parts) {
                Object[] stored = new Object[part.columns().size()];
                for (int r = 0; r < part.rowCount(); r++) {
                    if (part.deleted().isDeleted(r)) {
                        continue;
                    }
                    for (int c : columns) {
                        stored[c] = storedValue(part.column(c), r);
                    }
                    Object key = keyOf(stored, keys.get(k));
                    if (key != null && wanted.get(k).contains(key)) {
                        rows.put(key, part.rowId(r));
                    }
                }
            }
        }
        return found;
    }

    /** Above this many keys × parts, one pass over the key columns beats a lookup per key. */
    private static final long PROBES = 1 << 16;

    private static Object storedValue(Column column, int row) {
        int vid = column.indexVector().get(row);
        return vid == column.nullVid() ? null : column.dictionary().stored(vid);
    }

    /** Row {@code position} of {@code part} as internal values. */
    private static Object[] internalRow(TableSchema schema, TablePart part, int position) {
        Object[] stored = new Object[schema.size()];
        for (int c = 0; c < stored.length; c++) {
            stored[c] = storedValue(part.column(c), position);
        }
        return internal(schema, stored);
    }

    /** Stored values as Calcite's internal values (a VARBINARY's ISO 8859-1 chars as a ByteString, a UUID's text as a UUID). */
    private static Object[] internal(TableSchema schema, Object[] stored) {
        Object[] out = new Object[stored.length];
        for (int c = 0; c < out.length; c++) {
            ColumnType type = schema.column(c).type();
            out[c] = switch (stored[c]) {
                case null -> null;
                case Long l -> InternalValues.ofStored(type, l);
                case Double d -> InternalValues.ofStored(type, d);
                case String text when type.kind() == ColumnType.Kind.VARBINARY -> new ByteString(text.getBytes(StandardCharsets.ISO_8859_1));
                case String text when type.kind() == ColumnType.Kind.UUID -> UUID.fromString(text);
                default -> stored[c];
            };
        }
        return out;
    }

    private static String describe(TableSchema schema, TableSchema.KeyDef key) {
        StringBuilder columns = new StringBuilder();
        for (int c : key.columns()) {
            columns.append(columns.isEmpty() ? "" : ", ").append(schema.column(c).name());
        }
        return "(" + columns + ")";
    }
}
