package io.numacol.database;

import io.numacol.storage.Column;
import io.numacol.storage.KeyLookup;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSchema.ReferentialAction;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.types.ColumnType;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The referential actions of the foreign keys that name a table as their parent, as PostgreSQL
 * runs them: when a {@link TableChange} deletes parent rows (ON DELETE) or changes their referenced
 * key (ON UPDATE), the child rows that reference the old key are deleted (CASCADE), or their
 * foreign-key columns are set to NULL, to their DEFAULT, or to the key's new values (ON UPDATE
 * CASCADE). Each child's rows change in a {@link TableChange} of their own in the same transaction,
 * checked as any change of that table is (NOT NULL, CHECK, keys), and that change's own deletions
 * and key changes act on its children in turn, level by level (not by recursion: a chain of
 * thousands of rows of a self-referencing table is one level each); a cycle ends because a row once deleted, or a key
 * once changed, is not found again. The foreign keys are checked once every action ran (see
 * {@link io.numacol.storage.Transaction#deferForeignKeys}), so a SET DEFAULT whose default names no
 * parent row fails the statement with the foreign key's own message.
 */
final class ReferentialActions {
    /**
     * A foreign key of {@code child} that names the changed table, with the action it takes on
     * {@code update} of a referenced key (else on the delete of a referenced row).
     */
    record Reference(Table child, TableSchema.ForeignKeyDef key, ReferentialAction action, boolean update, int[] parentColumns) {
    }

    /**
     * What one foreign key does to its child table for one statement's change of the parent:
     * {@code keys} maps each old key (stored values) to its new one (ON UPDATE CASCADE), or to null.
     */
    record Step(Reference reference, Map<List<Object>, List<Object>> keys) {
    }

    private ReferentialActions() {
    }

    /**
     * The foreign keys naming {@code parent} whose action on {@code update} (else on delete)
     * changes child rows; none for a table that is not the catalog's of its name (an ALTER's copy
     * being filled, a dropped table).
     */
    static List<Reference> of(Table parent, boolean update) {
        if (parent.catalog().find(parent.schemaName(), parent.name()).orElse(null) != parent) {
            return List.of();
        }
        List<Reference> found = new ArrayList<>();
        for (Table t : parent.catalog().tables()) {
            for (TableSchema.ForeignKeyDef f : t.schema().foreignKeys()) {
                ReferentialAction action = update ? f.onUpdate() : f.onDelete();
                if (action.changesRows() && f.references(parent.schemaName(), parent.name())) {
                    int[] at = new int[f.parentColumns().size()];
                    for (int i = 0; i < at.length; i++) {
                        at[i] = parent.schema().indexOf(f.parentColumns().get(i));
                    }
                    if (Arrays.stream(at).allMatch(i -> i >= 0)) { // else the check names the missing column
                        found.add(new Reference(t, f, action, update, at));
                    }
                }
            }
        }
        return found;
    }

    /** The stored values of {@code columns} of row {@code position} of {@code part}, or null when one is NULL (it references nothing). */
    static List<Object> keyAt(TablePart part, int position, int[] columns) {
        Object[] key = new Object[columns.length];
        for (int c = 0; c < columns.length; c++) {
            Column column = part.column(columns[c]);
            int vid = column.indexVector().get(position);
            if (vid == column.nullVid()) {
                return null;
            }
            key[c] = column.dictionary().stored(vid);
        }
        return Arrays.asList(key);
    }

    /** The stored values of {@code columns} of a row given as Java values (as {@link Appender#append} takes them), NULLs as null. */
    static List<Object> keyOf(TableSchema schema, Object[] row, int[] columns) {
        Object[] key = new Object[columns.length];
        for (int c = 0; c < columns.length; c++) {
            Object v = row[columns[c]];
            if (v == null) {
                continue;
            }
            ColumnType type = schema.column(columns[c]).type();
            key[c] = switch (type.storageKind()) {
                case LONG -> type.toLong(v);
                case DOUBLE -> type.toDouble(v);
                case STRING -> type.toStringValue(v);
            };
        }
        return Arrays.asList(key);
    }

    /** Adds {@code oldKey} (to become {@code newKey}, or null) to the step of {@code reference} in {@code steps}. */
    static void add(Map<Reference, Map<List<Object>, List<Object>>> steps, Reference reference, List<Object> oldKey, List<Object> newKey) {
        steps.computeIfAbsent(reference, r -> new LinkedHashMap<>()).put(oldKey, newKey);
    }

    /**
     * Runs {@code step} on its child table, in the transaction of the thread's view: finds the rows
     * that reference each old key and deletes or changes them, in a change of the child's own, and
     * answers what that change does to the child's own children in turn.
     */
    static List<Step> run(Database database, Step step, Runnable checkStop) {
        Reference r = step.reference();
        Table child = r.child();
        TableSchema schema = child.schema();
        int[] columns = r.key().columns().stream().mapToInt(Integer::intValue).toArray();
        try (TableChange change = TableChange.begin(database, child, checkStop)) {
            TableSnapshot rows = change.snapshot();
            for (Map.Entry<List<Object>, List<Object>> e : step.keys().entrySet()) {
                for (long rowId : KeyLookup.rowIds(rows, columns, e.getKey().toArray())) {
                    if (r.action() == ReferentialAction.CASCADE && !r.update()) {
                        change.delete(rowId);
                        continue;
                    }
                    Object[] row = change.row(rowId);
                    for (int c = 0; c < columns.length; c++) {
                        TableSchema.ColumnDef column = schema.column(columns[c]);
                        row[columns[c]] = switch (r.action()) {
                            case SET_NULL -> null;
                            case SET_DEFAULT -> defaultOf(column);
                            default -> javaValue(column.type(), e.getValue().get(c)); // ON UPDATE CASCADE: the key's new value
                        };
                    }
                    change.update(rowId, row);
                }
            }
            return change.commitActed();
        }
    }

    /** What an INSERT that leaves {@code column} out gives it: its DEFAULT, the next number of its identity, else NULL. */
    private static Object defaultOf(TableSchema.ColumnDef column) {
        if (column.identity() != null) {
            return column.identity().sequence().next();
        }
        if (column.defaultExpression()) {
            // a DEFAULT expression is SQL the planner evaluates for an INSERT; the engine, which runs the action, plans none
            throw new UnsupportedOperationException("ON DELETE/UPDATE SET DEFAULT of column " + column.name() + ": its DEFAULT is the "
                    + "expression " + column.defaultText() + ", which a referential action does not evaluate; give the column a "
                    + "literal DEFAULT, or use SET NULL");
        }
        // a literal DEFAULT: only a TIMESTAMP WITH TIME ZONE without an offset would read the zone, and takes UTC as COPY does
        return column.defaultText() == null ? null : Appender.valueOfText(column, column.defaultText(), ZoneOffset.UTC);
    }

    /** A stored value as the Java value of a column of {@code type} (a key's new value, as the child's column holds it); null stays null. */
    private static Object javaValue(ColumnType type, Object stored) {
        return switch (stored) {
            case null -> null;
            case Long l -> type.toJava(l);
            case Double d -> type.toJava(d);
            case String s -> type.toJava(s);
            default -> stored;
        };
    }
}
