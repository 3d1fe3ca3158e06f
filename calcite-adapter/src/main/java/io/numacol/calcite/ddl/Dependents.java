package io.numacol.calcite.ddl;

import io.numacol.database.Database;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The DDL of foreign keys beyond CREATE TABLE: what depends on a table (the foreign keys of
 * other tables that name it as their parent), which DROP TABLE, RENAME and DROP COLUMN respect as
 * PostgreSQL does (refused with 2BP01 unless CASCADE drops the foreign keys; a key a foreign key
 * references is not dropped either, unless DROP CONSTRAINT ... CASCADE drops those), and ALTER TABLE ... ADD FOREIGN KEY / DROP CONSTRAINT of a
 * foreign key, which rebuild the table with its new constraints ({@link Database#alterTable}).
 */
final class Dependents {
    private Dependents() {
    }

    /** The tables other than {@code parent} with a foreign key naming it. */
    static List<Table> children(Database database, Table parent) {
        List<Table> children = new ArrayList<>();
        for (Table t : database.catalog().tables()) {
            if (t != parent && t.schema().foreignKeys().stream().anyMatch(f -> f.references(parent.schemaName(), parent.name()))) {
                children.add(t);
            }
        }
        return children;
    }

    /** PostgreSQL's refusal of {@code what} (e.g. "drop table p") while {@code child} references {@code parent}. */
    static DdlException refusal(String what, Table child, Table parent) {
        String key = child.schema().foreignKeys().stream().filter(f -> f.references(parent.schemaName(), parent.name()))
                .map(TableSchema.ForeignKeyDef::name).findFirst().orElse("?");
        return new DdlException("2BP01", "cannot " + what + " because other objects depend on it: constraint " + key
                + " on table " + child.name() + " depends on table " + parent.name() + "; ALTER TABLE " + child.name()
                + " DROP CONSTRAINT " + key + " first" + (what.startsWith("drop table") ? ", or DROP TABLE ... CASCADE" : ""));
    }

    /** Drops {@code child}'s foreign keys that name {@code parent} (DROP TABLE parent CASCADE). */
    static void dropReferences(Database database, Table child, Table parent) {
        dropReferences(database, child, f -> f.references(parent.schemaName(), parent.name()));
    }

    /** Drops {@code child}'s foreign keys that {@code dropped} accepts, rebuilding it once if there are any. */
    private static void dropReferences(Database database, Table child, Predicate<TableSchema.ForeignKeyDef> dropped) {
        List<TableSchema.ForeignKeyDef> kept = child.schema().foreignKeys().stream().filter(dropped.negate()).toList();
        if (kept.size() < child.schema().foreignKeys().size()) {
            database.alterTable(child, child.name(), child.schema().withForeignKeys(kept), row -> row, c -> c, true);
        }
    }

    /**
     * Drops the foreign keys (of any table, {@code parent}'s own among them) that reference
     * {@code parent}'s PRIMARY KEY or UNIQUE constraint {@code name}: DROP CONSTRAINT name CASCADE.
     * Returns {@code parent} as the catalog has it afterwards: rebuilt when it lost a foreign key to itself.
     */
    static Table dropKeyReferences(Database database, Table parent, String name) {
        TableSchema schema = parent.schema();
        TableSchema.KeyDef key = schema.keys().stream().filter(k -> name.equalsIgnoreCase(k.name())).findFirst().orElse(null);
        if (key == null) {
            return parent; // a CHECK: nothing references it
        }
        Predicate<TableSchema.ForeignKeyDef> onKey = f -> f.references(parent.schemaName(), parent.name())
                && schema.keyOn(f.parentColumns()).orElse(null) == key;
        for (Table t : List.copyOf(database.catalog().tables())) {
            if (t.schema().foreignKeys().stream().anyMatch(onKey)) {
                dropReferences(database, t, onKey);
            }
        }
        return database.catalog().get(parent.schemaName(), parent.name());
    }

    /** Refuses {@code what} of {@code column} of {@code table} while a foreign key (its own included) references it. */
    static void checkColumnKept(Database database, Table table, String column, String what) {
        for (Table t : database.catalog().tables()) {
            for (TableSchema.ForeignKeyDef f : t.schema().foreignKeys()) {
                if (f.references(table.schemaName(), table.name()) && f.parentColumns().stream().anyMatch(column::equalsIgnoreCase)) {
                    throw new DdlException("2BP01", "cannot " + what + " because other objects depend on it: constraint "
                            + f.name() + " on table " + t.name() + " references it; ALTER TABLE " + t.name() + " DROP CONSTRAINT "
                            + f.name() + " first");
                }
            }
        }
    }

    /** {@code table}'s schema with its foreign keys to itself naming it {@code name}, as RENAME TO makes it. */
    static TableSchema renamedParent(Table table, String name) {
        List<TableSchema.ForeignKeyDef> keys = new ArrayList<>();
        for (TableSchema.ForeignKeyDef f : table.schema().foreignKeys()) {
            keys.add(f.references(table.schemaName(), table.name())
                    ? f.withParentTable(name) : f);
        }
        return table.schema().withForeignKeys(keys);
    }

    /** ALTER TABLE ... ADD FOREIGN KEY: resolved, the rows checked, then the table rebuilt with it. */
    static void addForeignKey(Database database, DdlStatement.Session session, Table table, ForeignKeySpec spec) {
        Set<String> taken = names(table.schema());
        TableSchema.ForeignKeyDef key = spec.resolve(database, session, table.schemaName(), table.name(), table.schema(), taken);
        if (spec.name() != null && names(table.schema()).contains(spec.name().toUpperCase(Locale.ROOT))) {
            throw new DdlException("42710", "constraint \"" + spec.name() + "\" for relation \"" + table.name() + "\" already exists");
        }
        List<TableSchema.ForeignKeyDef> keys = new ArrayList<>(table.schema().foreignKeys());
        keys.add(key);
        database.addForeignKey(table, table.schema().withForeignKeys(keys), key);
    }

    /** ALTER TABLE ... DROP CONSTRAINT name, of a foreign key (the caller found it). */
    static void dropForeignKey(Database database, Table table, String name) {
        List<TableSchema.ForeignKeyDef> kept = table.schema().foreignKeys().stream()
                .filter(f -> !f.name().equalsIgnoreCase(name)).toList();
        database.alterTable(table, table.name(), table.schema().withForeignKeys(kept), row -> row, c -> c, true);
    }

    /** Refuses dropping {@code table}'s PRIMARY KEY or UNIQUE constraint {@code name} while a foreign key references its columns (2BP01). */
    static void checkKeyUnreferenced(Database database, Table table, String name) {
        TableSchema schema = table.schema();
        for (TableSchema.KeyDef k : schema.keys()) {
            if (!name.equalsIgnoreCase(k.name())) {
                continue;
            }
            for (Table t : database.catalog().tables()) {
                for (TableSchema.ForeignKeyDef f : t.schema().foreignKeys()) {
                    if (f.references(table.schemaName(), table.name()) && schema.keyOn(f.parentColumns()).orElse(null) == k) {
                        throw new DdlException("2BP01", "cannot drop constraint " + name + " on table " + table.name()
                                + " because other objects depend on it: constraint " + f.name() + " on table " + t.name()
                                + " references its key; ALTER TABLE " + t.name() + " DROP CONSTRAINT " + f.name() + " first");
                    }
                }
            }
        }
    }

    /** The names of a schema's constraints (keys, foreign keys and checks), upper case. */
    static Set<String> names(TableSchema schema) {
        Set<String> names = new HashSet<>();
        schema.keys().forEach(k -> names.add(String.valueOf(k.name()).toUpperCase(Locale.ROOT)));
        schema.foreignKeys().forEach(f -> names.add(f.name().toUpperCase(Locale.ROOT)));
        schema.checks().forEach(c -> names.add(c.name().toUpperCase(Locale.ROOT)));
        return names;
    }
}
