package io.numacol.calcite;

import org.apache.calcite.DataContext;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.sql.type.SqlTypeName;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Schema {@code pg_catalog}: the few of PostgreSQL's catalog tables that tools speaking
 * PostgreSQL join with {@code information_schema} to read a schema, with the columns they read.
 * jOOQ's {@code meta()} under its POSTGRES dialect finds UNIQUE and CHECK constraints so
 * (pg_constraint by contype, its pg_class and pg_namespace by oid, then key_column_usage by name,
 * or {@code pg_get_constraintdef(oid)}), and stopped at "Object 'pg_catalog' not found".
 *
 * <ul>
 *   <li>{@code pg_namespace} (oid, nspname, description): each schema;</li>
 *   <li>{@code pg_class} (oid, relname, relnamespace, relkind, description): each table and
 *       system table ('r', as PostgreSQL's own catalogs are) and view ('v'), with its COMMENT;</li>
 *   <li>{@code pg_attribute} (attrelid, attname, attnum, attgenerated): each column of each;</li>
 *   <li>{@code pg_proc} and {@code pg_type}: empty (numacol has no functions or types of a
 *       schema's own);</li>
 *   <li>{@code pg_constraint} (oid, conname, connamespace, conrelid, contype, condef): each
 *       PRIMARY KEY ('p'), UNIQUE ('u'), FOREIGN KEY ('f') and CHECK ('c') constraint;
 *       {@code condef} is what {@code pg_get_constraintdef(oid)} answers
 *       ({@link PostgresFunctions}), as numacol has no function that finds a row by oid; a
 *       {@code description} is what {@code obj_description(oid, catalog)} answers, the same way.</li>
 * </ul>
 *
 * numacol has no object ids: an oid here is a hash of the object's kind, schema and names, the
 * same in every query (so the tables join on them), positive and 63 bits wide (PostgreSQL's are
 * 32 bits, which its client reads as a long anyway).
 */
public final class PgCatalog extends AbstractSchema {
    public static final String NAME = "pg_catalog";

    @Override
    protected Map<String, Table> getTableMap() {
        return Map.of(
                "pg_namespace", new SystemTable(List.of(SystemTable.col("oid", SqlTypeName.BIGINT),
                        SystemTable.col("nspname", SqlTypeName.VARCHAR), SystemTable.col("description", SqlTypeName.VARCHAR)),
                        PgCatalog::namespaceRows),
                "pg_class", new SystemTable(List.of(SystemTable.col("oid", SqlTypeName.BIGINT),
                        SystemTable.col("relname", SqlTypeName.VARCHAR), SystemTable.col("relnamespace", SqlTypeName.BIGINT),
                        SystemTable.col("relkind", SqlTypeName.VARCHAR), SystemTable.col("description", SqlTypeName.VARCHAR)),
                        PgCatalog::classRows),
                "pg_attribute", new SystemTable(List.of(SystemTable.col("attrelid", SqlTypeName.BIGINT),
                        SystemTable.col("attname", SqlTypeName.VARCHAR), SystemTable.col("attnum", SqlTypeName.INTEGER),
                        SystemTable.col("attgenerated", SqlTypeName.VARCHAR)), PgCatalog::attributeRows),
                // numacol has no functions or types of a schema's own: these are empty, for the queries that join them
                "pg_proc", new SystemTable(List.of(SystemTable.col("oid", SqlTypeName.BIGINT),
                        SystemTable.col("proname", SqlTypeName.VARCHAR), SystemTable.col("pronamespace", SqlTypeName.BIGINT),
                        SystemTable.col("description", SqlTypeName.VARCHAR)), root -> List.of()),
                "pg_type", new SystemTable(List.of(SystemTable.col("oid", SqlTypeName.BIGINT),
                        SystemTable.col("typname", SqlTypeName.VARCHAR), SystemTable.col("typnamespace", SqlTypeName.BIGINT),
                        SystemTable.col("description", SqlTypeName.VARCHAR)), root -> List.of()),
                "pg_constraint", new SystemTable(List.of(SystemTable.col("oid", SqlTypeName.BIGINT),
                        SystemTable.col("conname", SqlTypeName.VARCHAR), SystemTable.col("connamespace", SqlTypeName.BIGINT),
                        SystemTable.col("conrelid", SqlTypeName.BIGINT), SystemTable.col("contype", SqlTypeName.VARCHAR),
                        SystemTable.col("condef", SqlTypeName.VARCHAR)), PgCatalog::constraintRows));
    }

    private static List<Object[]> namespaceRows(DataContext root) {
        List<Object[]> rows = new ArrayList<>();
        for (String schema : InformationSchema.schemaNames(root)) {
            rows.add(new Object[]{oid("n", schema), schema, null});
        }
        return rows;
    }

    private static List<Object[]> classRows(DataContext root) {
        List<Object[]> rows = new ArrayList<>();
        NumacolSchema numacol = InformationSchema.main(root);
        for (Object[] t : InformationSchema.tableRows(root)) { // catalog, schema, name, table_type
            String schema = (String) t[1];
            String name = (String) t[2];
            String comment = numacol == null ? null : numacol.database().catalog().comment(schema, name, null).orElse(null);
            rows.add(new Object[]{oid("r", schema, name), name, oid("n", schema), "VIEW".equals(t[3]) ? "v" : "r", comment});
        }
        return rows;
    }

    /** Each column of each table and view: attgenerated is '' (numacol has no generated, computed columns). */
    private static List<Object[]> attributeRows(DataContext root) {
        List<Object[]> rows = new ArrayList<>();
        // information_schema.columns: catalog, schema, table, column, ordinal_position, ...
        for (Object[] c : InformationSchema.columnRows(root)) {
            rows.add(new Object[]{oid("r", (String) c[1], (String) c[2]), c[3], c[4], ""});
        }
        return rows;
    }

    private static List<Object[]> constraintRows(DataContext root) {
        List<Object[]> rows = new ArrayList<>();
        // constraint catalog, schema, name, table catalog, schema, name, constraint_type, ..., its definition
        for (Object[] c : InformationSchema.tableConstraintRows(root)) {
            String schema = (String) c[1];
            String name = (String) c[2];
            String contype = switch ((String) c[6]) {
                case "PRIMARY KEY" -> "p";
                case "UNIQUE" -> "u";
                case "FOREIGN KEY" -> "f";
                default -> "c";
            };
            rows.add(new Object[]{oid("c", schema, (String) c[5], name), name, oid("n", schema),
                    oid("r", (String) c[4], (String) c[5]), contype, c[c.length - 1]});
        }
        return rows;
    }

    /** A positive 63-bit FNV-1a hash of {@code kind} and {@code names}: an object's oid. */
    static long oid(String kind, String... names) {
        long h = 0xcbf29ce484222325L;
        List<String> parts = new ArrayList<>(names.length + 1);
        parts.add(kind);
        parts.addAll(List.of(names));
        for (String part : parts) {
            for (byte b : part.getBytes(StandardCharsets.UTF_8)) {
                h ^= b & 0xff;
                h *= 0x100000001b3L;
            }
            h ^= 0xff; // a byte UTF-8 never holds, between the parts: ("ab", "c") and ("a", "bc") differ
            h *= 0x100000001b3L;
        }
        return h >>> 1;
    }
}
