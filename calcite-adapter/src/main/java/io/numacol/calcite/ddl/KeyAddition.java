package io.numacol.calcite.ddl;

import io.numacol.database.Database;
import io.numacol.storage.KeyViolationException;
import io.numacol.storage.NotNullViolationException;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSchema.ColumnDef;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * ALTER TABLE ... ADD [CONSTRAINT name] PRIMARY KEY | UNIQUE (column, ...), as PostgreSQL takes
 * it: the key is named as CREATE TABLE names one ({@code t_pkey}, {@code t_a_b_key}, a number
 * after it when that is taken), a primary key's columns become NOT NULL, and the table is rebuilt
 * with the new schema through {@link Database#alterTable} (every stored row copied and checked
 * against it, so a duplicate key or a NULL in a primary key column refuses the ALTER and the
 * table stays as it was). The rebuild holds the table's writes and retires the old table, so a
 * transaction that wrote the old one fails its commit rather than storing a duplicate unseen; the
 * new table's key sets and key lookups are built from its schema, so later commits check the key.
 */
final class KeyAddition {
    private KeyAddition() {
    }

    /** Adds the key named {@code name} (null: named as PostgreSQL names it) on {@code columns} to {@code table}. */
    static void add(Database database, Table table, String name, List<String> columns, boolean primary) {
        TableSchema schema = table.schema();
        String kind = primary ? "PRIMARY KEY" : "UNIQUE";
        List<Integer> at = new ArrayList<>();
        for (String c : columns) {
            int i = schema.indexOf(c);
            if (i < 0) {
                throw new DdlException("42703", "column \"" + c + "\" named in key does not exist: table " + table.name()
                        + " has columns " + schema.columns().stream().map(ColumnDef::name).toList());
            }
            if (at.contains(i)) {
                throw new DdlException("42701", "column \"" + c + "\" appears twice in " + kind + " constraint");
            }
            at.add(i);
        }
        if (primary) {
            for (TableSchema.KeyDef k : schema.keys()) {
                if (k.primary()) {
                    throw new DdlException("42P16", "multiple primary keys for table \"" + table.name() + "\" are not allowed: it has "
                            + k.name() + "; ALTER TABLE " + table.name() + " DROP CONSTRAINT " + k.name() + " first, or add a UNIQUE constraint");
                }
            }
        }
        Set<String> taken = Dependents.names(schema);
        if (name != null && taken.contains(name.toUpperCase(Locale.ROOT))) {
            throw new DdlException("42710", "constraint \"" + name + "\" for relation \"" + table.name() + "\" already exists");
        }
        String keyName = name != null ? name : free(taken, table.name() + (primary ? "_pkey"
                : "_" + String.join("_", at.stream().map(i -> schema.column(i).name()).toList()) + "_key"));
        List<ColumnDef> next = new ArrayList<>(schema.columns());
        if (primary) {
            at.forEach(i -> next.set(i, next.get(i).withNullable(false))); // as PostgreSQL: a primary key's columns are NOT NULL
        }
        List<TableSchema.KeyDef> keys = new ArrayList<>(schema.keys());
        keys.add(new TableSchema.KeyDef(keyName, at, primary));
        try {
            database.alterTable(table, table.name(), new TableSchema(next, keys, schema.foreignKeys(), schema.checks()),
                    row -> row, c -> c, true);
        } catch (NotNullViolationException e) {
            throw new DdlException("23502", "column \"" + e.column() + "\" of relation \"" + table.name() + "\" contains null values, "
                    + "and a PRIMARY KEY's columns are NOT NULL: give those rows a value (or delete them) before adding " + keyName, e);
        } catch (KeyViolationException e) {
            throw new DdlException("23505", "could not add constraint \"" + keyName + "\": stored rows of table " + table.name()
                    + " repeat a key (" + e.getMessage() + "); change or delete the duplicates first", e);
        }
    }

    /** {@code base}, or {@code base} with 1, 2, ... after it: the first not in {@code taken} (upper case), as PostgreSQL chooses. */
    private static String free(Set<String> taken, String base) {
        String name = base;
        for (int n = 1; taken.contains(name.toUpperCase(Locale.ROOT)); n++) {
            name = base + n;
        }
        return name;
    }
}
