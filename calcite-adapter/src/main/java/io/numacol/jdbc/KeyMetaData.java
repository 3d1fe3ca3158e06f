package io.numacol.jdbc;

import io.numacol.database.Database;
import io.numacol.storage.IndexDef;
import io.numacol.storage.Table;
import io.numacol.storage.TableSchema;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.avatica.MetaImpl.MetaIndexInfo;
import org.apache.calcite.avatica.MetaImpl.MetaPrimaryKey;
import org.apache.calcite.jdbc.CalciteMetaImpl;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.sql.DatabaseMetaData;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The rows of {@code DatabaseMetaData.getPrimaryKeys} and {@code getIndexInfo}, from the catalog:
 * Calcite's Meta answers both empty. A table is named as numacol resolves a name, ignoring case
 * (two tables of a schema cannot differ in case only); a null schema means any. The result sets
 * are made as Calcite makes getTables', so that their columns are typed as JDBC says (KEY_SEQ
 * and TYPE SMALLINT, CARDINALITY and PAGES BIGINT).
 */
final class KeyMetaData {
    private KeyMetaData() {
    }

    static final List<String> PRIMARY_KEY_COLUMNS = List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ",
            "PK_NAME");
    static final List<String> INDEX_INFO_COLUMNS = List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "NON_UNIQUE",
            "INDEX_QUALIFIER", "INDEX_NAME", "TYPE", "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC", "CARDINALITY", "PAGES",
            "FILTER_CONDITION");

    /** One row per column of the primary key of each table named, ordered by COLUMN_NAME as JDBC says. */
    static List<MetaPrimaryKey> primaryKeys(Database db, String catalogName, String catalog, String schema, String table) {
        List<MetaPrimaryKey> rows = new ArrayList<>();
        for (Table t : tables(db, catalogName, catalog, schema, table)) {
            for (TableSchema.KeyDef key : t.schema().keys()) {
                if (!key.primary()) {
                    continue;
                }
                for (int i = 0; i < key.columns().size(); i++) {
                    rows.add(primaryKey(catalogName, t.schemaName(), t.name(), t.schema().column(key.columns().get(i)).name(),
                            (short) (i + 1), key.name()));
                }
            }
        }
        rows.sort(Comparator.comparing((MetaPrimaryKey k) -> k.tableSchem).thenComparing(k -> k.tableName)
                .thenComparing(k -> k.columnName));
        return rows;
    }

    /**
     * One row per column of each PRIMARY KEY and UNIQUE constraint (NON_UNIQUE false) and of each
     * CREATE INDEX (NON_UNIQUE unless UNIQUE) of each table named; only the unique ones if {@code
     * unique}. Ordered as JDBC says: NON_UNIQUE, TYPE, INDEX_NAME, ORDINAL_POSITION.
     */
    static List<MetaIndexInfo> indexInfo(Database db, String catalogName, String catalog, String schema, String table,
                                         boolean unique) {
        List<MetaIndexInfo> rows = new ArrayList<>();
        List<Table> named = tables(db, catalogName, catalog, schema, table);
        for (Table t : named) {
            for (TableSchema.KeyDef key : t.schema().keys()) {
                for (int i = 0; i < key.columns().size(); i++) {
                    rows.add(index(catalogName, t, false, key.name(), i, t.schema().column(key.columns().get(i)).name()));
                }
            }
        }
        for (IndexDef ix : db.catalog().indexes()) {
            if (unique && !ix.unique()) {
                continue;
            }
            named.stream().filter(t -> same(t.schemaName(), ix.schema()) && same(t.name(), ix.table())).findFirst().ifPresent(t -> {
                for (int i = 0; i < ix.columns().size(); i++) {
                    rows.add(index(catalogName, t, !ix.unique(), ix.name(), i, ix.columns().get(i)));
                }
            });
        }
        rows.sort(Comparator.comparing((MetaIndexInfo r) -> r.nonUnique).thenComparing(r -> r.type)
                .thenComparing(r -> r.tableSchem).thenComparing(r -> r.tableName)
                .thenComparing(r -> r.indexName).thenComparing(r -> r.ordinalPosition));
        return rows;
    }

    private static MetaIndexInfo index(String catalogName, Table t, boolean nonUnique, String name, int position, String column) {
        // numacol keeps no sorted structure: ASC_OR_DESC null ("not supported"); no structure is built, so it has
        // no pages, and its cardinality is not counted: 0, as H2 gives what it does not know (Avatica's columns are not nullable)
        return new MetaIndexInfo(catalogName, t.schemaName(), t.name(), nonUnique, null, name, DatabaseMetaData.tableIndexOther,
                (short) (position + 1), column, null, 0, 0, null);
    }

    /** The tables of {@code db} that the arguments name, sorted by schema and name; none if the catalog is another. */
    private static List<Table> tables(Database db, String catalogName, String catalog, String schema, String table) {
        if (db == null || table == null || (catalog != null && !catalog.equals(catalogName == null ? "" : catalogName))) {
            return List.of();
        }
        return db.catalog().tables().stream()
                .filter(t -> !t.isDropped() && same(t.name(), table) && (schema == null || same(t.schemaName(), schema)))
                .sorted(Comparator.comparing(Table::schemaName).thenComparing(Table::name))
                .toList();
    }

    private static boolean same(String a, String b) {
        return a.toUpperCase(Locale.ROOT).equals(b.toUpperCase(Locale.ROOT));
    }

    /**
     * The columns of getImportedKeys, getExportedKeys and getCrossReference, as JDBC names them:
     * Avatica's spell the last DEFERABILITY.
     */
    static final List<String> FOREIGN_KEY_COLUMNS = List.of("PKTABLE_CAT", "PKTABLE_SCHEM", "PKTABLE_NAME",
            "PKCOLUMN_NAME", "FKTABLE_CAT", "FKTABLE_SCHEM", "FKTABLE_NAME", "FKCOLUMN_NAME", "KEY_SEQ", "UPDATE_RULE",
            "DELETE_RULE", "FK_NAME", "PK_NAME", "DEFERRABILITY");

    /** A catalog, schema and table pattern as JDBC's key methods take them: null says any (the table only where JDBC allows). */
    record Named(String catalog, String schema, String table) {
        boolean matches(String catalogName, Table t) {
            return (catalog == null || catalog.equals(catalogName == null ? "" : catalogName))
                    && (schema == null || same(schema, t.schemaName())) && (table == null || same(table, t.name()));
        }
    }

    /** JDBC's importedKey code of a referential action. */
    static short rule(TableSchema.ReferentialAction action) {
        return (short) switch (action) {
            case NO_ACTION -> DatabaseMetaData.importedKeyNoAction;
            case RESTRICT -> DatabaseMetaData.importedKeyRestrict;
            case CASCADE -> DatabaseMetaData.importedKeyCascade;
            case SET_NULL -> DatabaseMetaData.importedKeySetNull;
            case SET_DEFAULT -> DatabaseMetaData.importedKeySetDefault;
        };
    }

    /**
     * One row per column of each foreign key whose parent is {@code parent} and whose table is
     * {@code child}, with its UPDATE_RULE and DELETE_RULE; not deferrable, as numacol's keys are. Ordered as JDBC
     * says: by the child's table ({@code byChild}: getExportedKeys, getCrossReference) or the
     * parent's (getImportedKeys), then KEY_SEQ.
     */
    static List<ForeignKeyRow> foreignKeys(Database db, String catalogName, Named parent, Named child, boolean byChild) {
        if (db == null) {
            return List.of();
        }
        List<ForeignKeyRow> rows = new ArrayList<>();
        for (Table t : db.catalog().tables()) {
            if (t.isDropped() || !child.matches(catalogName, t)) {
                continue;
            }
            for (TableSchema.ForeignKeyDef f : t.schema().foreignKeys()) {
                Table p = db.catalog().find(f.parentSchema(), f.parentTable()).orElse(null);
                if (p == null || !parent.matches(catalogName, p)) {
                    continue;
                }
                String pkName = p.schema().keyOn(f.parentColumns()).map(TableSchema.KeyDef::name).orElse(null);
                for (int i = 0; i < f.columns().size(); i++) {
                    rows.add(new ForeignKeyRow(catalogName, p.schemaName(), p.name(), f.parentColumns().get(i), catalogName,
                            t.schemaName(), t.name(), t.schema().column(f.columns().get(i)).name(), (short) (i + 1),
                            rule(f.onUpdate()), rule(f.onDelete()), f.name(), pkName,
                            (short) DatabaseMetaData.importedKeyNotDeferrable));
                }
            }
        }
        Comparator<ForeignKeyRow> order = byChild
                ? Comparator.comparing((ForeignKeyRow k) -> k.fktableSchem).thenComparing(k -> k.fktableName)
                : Comparator.comparing((ForeignKeyRow k) -> k.pktableSchem).thenComparing(k -> k.pktableName);
        rows.sort(order.thenComparing(k -> k.fkName).thenComparing(k -> k.keySeq));
        return rows;
    }

    /**
     * A row of getImportedKeys, getExportedKeys and getCrossReference: Avatica's MetaImportedKey
     * with JDBC's spelling of the last field, which Calcite's result sets find by name.
     */
    public static final class ForeignKeyRow {
        public final String pktableCat;
        public final String pktableSchem;
        public final String pktableName;
        public final String pkcolumnName;
        public final String fktableCat;
        public final String fktableSchem;
        public final String fktableName;
        public final String fkcolumnName;
        public final short keySeq;
        public final short updateRule;
        public final short deleteRule;
        public final String fkName;
        public final String pkName;
        public final short deferrability;

        ForeignKeyRow(String pktableCat, String pktableSchem, String pktableName, String pkcolumnName, String fktableCat,
                      String fktableSchem, String fktableName, String fkcolumnName, short keySeq, short updateRule, short deleteRule,
                      String fkName, String pkName, short deferrability) {
            this.pktableCat = pktableCat;
            this.pktableSchem = pktableSchem;
            this.pktableName = pktableName;
            this.pkcolumnName = pkcolumnName;
            this.fktableCat = fktableCat;
            this.fktableSchem = fktableSchem;
            this.fktableName = fktableName;
            this.fkcolumnName = fkcolumnName;
            this.keySeq = keySeq;
            this.updateRule = updateRule;
            this.deleteRule = deleteRule;
            this.fkName = fkName;
            this.pkName = pkName;
            this.deferrability = deferrability;
        }
    }

    /** A result set of {@code rows}, made by Calcite's Meta as it makes getTables'; {@code columns} are JDBC's names of the fields. */
    static Meta.MetaResultSet resultSet(Meta calcite, List<?> rows, Class<?> type, List<String> columns) {
        try {
            return (Meta.MetaResultSet) CREATE_RESULT_SET.invoke(calcite, Linq4j.asEnumerable(rows), type, columns);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private static MetaPrimaryKey primaryKey(String cat, String schema, String table, String column, short seq, String name) {
        try {
            return (MetaPrimaryKey) PRIMARY_KEY.invoke(cat, schema, table, column, seq, name);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** CalciteMetaImpl's private {@code createResultSet(Enumerable, Class, List<String>)}, which its getTables uses. */
    private static final MethodHandle CREATE_RESULT_SET;
    /** MetaPrimaryKey's constructor, which Avatica keeps package-private. */
    private static final MethodHandle PRIMARY_KEY;

    static {
        try {
            CREATE_RESULT_SET = MethodHandles.privateLookupIn(CalciteMetaImpl.class, MethodHandles.lookup()).findVirtual(
                    CalciteMetaImpl.class, "createResultSet",
                    MethodType.methodType(Meta.MetaResultSet.class, Enumerable.class, Class.class, List.class));
            PRIMARY_KEY = MethodHandles.privateLookupIn(MetaPrimaryKey.class, MethodHandles.lookup()).findConstructor(
                    MetaPrimaryKey.class, MethodType.methodType(void.class, String.class, String.class, String.class, String.class,
                            short.class, String.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
