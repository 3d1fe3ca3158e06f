package io.numacol.calcite.ddl;

import io.numacol.database.Database;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.StorageKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A FOREIGN KEY or REFERENCES clause as written, resolved against the catalog when its statement
 * runs ({@link #resolve}) into a {@link TableSchema.ForeignKeyDef}: the parent must exist (or be
 * the table being created), the referenced columns must be the columns of one of its PRIMARY KEY
 * or UNIQUE constraints (none given: its primary key), and each pair of columns must compare by
 * stored value, as the checks compare them.
 *
 * <p>ON DELETE and ON UPDATE take PostgreSQL's actions ({@link TableSchema.ReferentialAction}):
 * NO ACTION (the default) and RESTRICT refuse the change of a referenced key, the others change
 * the referencing rows with it.
 *
 * @param name          the constraint's name as written, or null: PostgreSQL's {@code table_column_fkey}
 * @param columns       the referencing columns' names
 * @param parent        the parent table's name
 * @param parentColumns the referenced columns' names, empty for the parent's primary key
 * @param onDelete      what deleting a referenced row does
 * @param onUpdate      what changing a referenced key does
 */
record ForeignKeySpec(String name, List<String> columns, DdlStatement.Name parent, List<String> parentColumns,
                      TableSchema.ReferentialAction onDelete, TableSchema.ReferentialAction onUpdate) {

    ForeignKeySpec {
        columns = List.copyOf(columns);
        parentColumns = List.copyOf(parentColumns);
    }

    /**
     * The constraint of table {@code tableName} (whose schema, being created or altered, is
     * {@code schema}), in schema {@code schemaName}, resolved; {@code taken} holds the names of
     * the table's constraints so far, which a generated name avoids.
     *
     * @throws DdlException 42P01 no such parent, 42703 no such column, 42830 the columns are no
     *     key of the parent, 42804 a pair of columns of incompatible types
     */
    TableSchema.ForeignKeyDef resolve(Database database, DdlStatement.Session session, String schemaName, String tableName,
                                      TableSchema schema, Set<String> taken) {
        String parentSchema = session.schemaOf(parent); // an unqualified parent is the session's schema's, as PostgreSQL's search path finds it
        boolean self = parentSchema.equalsIgnoreCase(schemaName) && parent.name().equalsIgnoreCase(tableName);
        TableSchema parentTable;
        String parentName;
        if (self) {
            parentTable = schema;
            parentName = tableName;
        } else {
            Table found = database.catalog().find(parentSchema, parent.name()).orElseThrow(() -> new DdlException("42P01",
                    "relation \"" + parent + "\" does not exist (named by a FOREIGN KEY of " + tableName + ")"));
            parentTable = found.schema();
            parentName = found.name();
            parentSchema = found.schemaName();
        }
        List<Integer> at = positions(schema, columns, tableName);
        List<String> referenced = parentColumns.isEmpty() ? primaryKey(parentTable, parentName) : parentColumns;
        List<Integer> parentAt = positions(parentTable, referenced, parentName);
        if (referenced.size() != columns.size()) {
            throw new DdlException("42830", "number of referencing and referenced columns for foreign key disagree: "
                    + columns.size() + " and " + referenced.size());
        }
        List<String> parentNames = new ArrayList<>();
        parentAt.forEach(i -> parentNames.add(parentTable.column(i).name()));
        if (parentTable.keyOn(parentNames).isEmpty()) {
            throw new DdlException("42830", "there is no unique constraint matching given keys for referenced table \""
                    + parentName + "\": make (" + String.join(", ", parentNames) + ") its PRIMARY KEY or UNIQUE");
        }
        if (name != null && taken.contains(name.toUpperCase(Locale.ROOT))) {
            throw new DdlException("42710", "constraint \"" + name + "\" for relation \"" + tableName + "\" already exists");
        }
        String keyName = name != null ? name : freeName(tableName + "_" + String.join("_", columns) + "_fkey", taken);
        for (int i = 0; i < at.size(); i++) {
            ColumnType child = schema.column(at.get(i)).type();
            ColumnType key = parentTable.column(parentAt.get(i)).type();
            if (!comparable(child, key)) {
                throw new DdlException("42804", "foreign key constraint \"" + keyName + "\" cannot be implemented: key columns \""
                        + schema.column(at.get(i)).name() + "\" and \"" + parentNames.get(i) + "\" are of incompatible types: "
                        + child + " and " + key);
            }
        }
        taken.add(keyName.toUpperCase(Locale.ROOT));
        return new TableSchema.ForeignKeyDef(keyName, at, parentSchema, parentName, parentNames, onDelete, onUpdate);
    }

    /** Whether the two types' stored values mean the same: integers of any width, equal DECIMAL scales, strings, or one type. */
    static boolean comparable(ColumnType a, ColumnType b) {
        if (a.storageKind() != b.storageKind()) {
            return false;
        }
        if (a.storageKind() == StorageKind.STRING) {
            return a.kind() == b.kind() || (isText(a) && isText(b));
        }
        if (isIntegral(a) || isIntegral(b)) {
            return isIntegral(a) && isIntegral(b);
        }
        return a.kind() == b.kind() && a.scale() == b.scale();
    }

    private static boolean isText(ColumnType t) {
        return t.kind() == ColumnType.Kind.VARCHAR || t.kind() == ColumnType.Kind.CHAR;
    }

    private static boolean isIntegral(ColumnType t) {
        return switch (t.kind()) {
            case TINYINT, SMALLINT, INTEGER, BIGINT -> true;
            default -> false;
        };
    }

    private static List<String> primaryKey(TableSchema table, String tableName) {
        for (TableSchema.KeyDef k : table.keys()) {
            if (k.primary()) {
                return k.columns().stream().map(c -> table.column(c).name()).toList();
            }
        }
        throw new DdlException("42830", "there is no primary key for referenced table \"" + tableName
                + "\": name the referenced columns, REFERENCES " + tableName + " (column, ...)");
    }

    private static List<Integer> positions(TableSchema schema, List<String> names, String tableName) {
        List<Integer> at = new ArrayList<>();
        for (String n : names) {
            int i = schema.indexOf(n);
            if (i < 0) {
                throw new DdlException("42703", "column \"" + n + "\" named in foreign key constraint does not exist in table "
                        + tableName);
            }
            at.add(i);
        }
        return at;
    }

    /** {@code base}, or {@code base} with the first number that makes it a name not in {@code taken} (upper case). */
    private static String freeName(String base, Set<String> taken) {
        String candidate = base;
        for (int n = 1; taken.contains(candidate.toUpperCase(Locale.ROOT)); n++) {
            candidate = base + n;
        }
        return candidate;
    }
}
