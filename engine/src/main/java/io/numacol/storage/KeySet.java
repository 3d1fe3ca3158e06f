package io.numacol.storage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The values of one key ({@link TableSchema.KeyDef}) that the rows of a table's newest version
 * hold, so that a commit finds a duplicate without reading the table: built once from the parts,
 * then changed by each commit ({@link #prepare} checks a change and says what it removes and
 * adds, {@link Change#apply} makes it so). Used under the commit lock only.
 */
final class KeySet {
    private final TableSchema schema;
    private final TableSchema.KeyDef key;
    private final Set<Object> values = new HashSet<>();

    KeySet(TableSchema schema, TableSchema.KeyDef key, List<TablePart> parts) {
        this.schema = schema;
        this.key = key;
        for (TablePart p : parts) {
            for (int r = 0; r < p.rowCount(); r++) {
                Object k = p.deleted().isDeleted(r) ? null : keyOf(p, r);
                if (k != null && !values.add(k)) {
                    throw new KeyViolationException(duplicate(k)); // rows stored before keys were enforced
                }
            }
        }
    }

    /** Row {@code r}'s key: the value of a one-column key, a list of values of a wider one; null when one is NULL. */
    Object keyOf(TablePart part, int r) {
        List<Integer> columns = key.columns();
        if (columns.size() == 1) {
            return part.column(columns.getFirst()).value(r);
        }
        Object[] k = new Object[columns.size()];
        for (int i = 0; i < k.length; i++) {
            k[i] = part.column(columns.get(i)).value(r);
            if (k[i] == null) {
                return null;
            }
        }
        return Arrays.asList(k);
    }

    /** What one commit does to the keys. */
    final class Change {
        private final List<Object> removed;
        private final List<Object> added;

        private Change(List<Object> removed, List<Object> added) {
            this.removed = removed;
            this.added = added;
        }

        void apply() {
            removed.forEach(values::remove);
            values.addAll(added);
        }
    }

    /**
     * Checks the change that puts {@code replacement} in the place of {@code old} (versions of
     * old parts with more rows deleted, and new parts): the rows it adds must not repeat a key
     * among themselves, nor one of the rows that stay.
     *
     * @throws KeyViolationException naming the key and the value
     */
    Change prepare(List<TablePart> old, List<TablePart> replacement) {
        List<Object> removed = new ArrayList<>();
        List<Object> added = new ArrayList<>();
        List<TablePart> fresh = new ArrayList<>(replacement);
        for (TablePart p : old) {
            TablePart version = null;
            for (TablePart r : fresh) {
                if (r.sameData(p)) {
                    version = r;
                    break;
                }
            }
            if (version != null) {
                fresh.remove(version);
            }
            for (int r = 0; r < p.rowCount(); r++) {
                if (!p.deleted().isDeleted(r) && (version == null || version.deleted().isDeleted(r))) {
                    Object k = keyOf(p, r);
                    if (k != null) {
                        removed.add(k);
                    }
                }
            }
        }
        Map<Object, Integer> freed = new HashMap<>();
        for (Object k : removed) {
            freed.merge(k, 1, Integer::sum);
        }
        Set<Object> adding = new HashSet<>();
        for (TablePart p : fresh) {
            for (int r = 0; r < p.rowCount(); r++) {
                Object k = p.deleted().isDeleted(r) ? null : keyOf(p, r);
                if (k == null) {
                    continue;
                }
                if (!adding.add(k) || (values.contains(k) && !freed.containsKey(k))) {
                    throw new KeyViolationException(duplicate(k));
                }
                added.add(k);
            }
        }
        return new Change(removed, added);
    }

    /** PostgreSQL's words for a duplicate key. */
    private String duplicate(Object k) {
        StringBuilder columns = new StringBuilder();
        for (int c : key.columns()) {
            columns.append(columns.isEmpty() ? "" : ", ").append(schema.column(c).name());
        }
        String shown = k instanceof List<?> l ? String.join(", ", l.stream().map(String::valueOf).toList()) : String.valueOf(k);
        return "duplicate key value violates " + (key.primary() ? "primary key" : "unique constraint") + " \"" + key.name()
                + "\": key (" + columns + ")=(" + shown + ") already exists";
    }
}
