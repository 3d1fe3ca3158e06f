package io.numacol.calcite;

import io.numacol.storage.NamedSequence;
import io.numacol.storage.SequenceDef;
import io.numacol.storage.TableSchema;
import org.apache.calcite.DataContext;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.ViewTable;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;

/**
 * Schema {@code information_schema}: the SQL standard's views of what the connection holds, as
 * tools that speak to PostgreSQL, DuckDB or H2 query them. {@code schemata}, {@code tables}
 * (table_type BASE TABLE, VIEW or SYSTEM TABLE), {@code columns} (data_type as SQL spells it,
 * with length, precision and scale), {@code views} (view_definition as written), and, as
 * PostgreSQL gives them, {@code table_constraints} (each PRIMARY KEY, UNIQUE, FOREIGN KEY and CHECK
 * constraint), {@code key_column_usage} (the keys' columns, ordinal_position in the key), {@code
 * referential_constraints} (each foreign key and the key it references), {@code
 * check_constraints} (each CHECK's check_clause, its expression as written) and {@code sequences}
 * (each CREATE SEQUENCE's declaration, its numbers as text, as PostgreSQL's). Every schema
 * of the connection is listed, this one and {@code sys} too; the catalog is {@code numacol}.
 */
public final class InformationSchema extends AbstractSchema {
    public static final String NAME = "information_schema";
    private static final String CATALOG = "numacol";

    @Override
    protected Map<String, Table> getTableMap() {
        return Map.of(
                "table_constraints", new SystemTable(cols(List.of("constraint_catalog", "constraint_schema", "constraint_name",
                        "table_catalog", "table_schema", "table_name", "constraint_type", "is_deferrable", "initially_deferred",
                        "enforced"), List.of(SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR,
                        SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR,
                        SqlTypeName.VARCHAR)),
                        root -> withoutDefinitions(tableConstraintRows(root))),
                "check_constraints", new SystemTable(cols(List.of("constraint_catalog", "constraint_schema", "constraint_name",
                        "check_clause"), List.of(SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR)),
                        root -> checkRows(root, (table, check) -> new Object[]{CATALOG, table.schema(), check.name(), check.expression()})),
                "key_column_usage", new SystemTable(cols(List.of("constraint_catalog", "constraint_schema", "constraint_name",
                        "table_catalog", "table_schema", "table_name", "column_name", "ordinal_position",
                        "position_in_unique_constraint"), List.of(SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR,
                        SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.INTEGER,
                        SqlTypeName.INTEGER)),
                        root -> constraintRows(root, (key, out) -> {
                            for (int i = 0; i < key.columns().size(); i++) {
                                // position_in_unique_constraint: a foreign key's column's place in the key it references
                                out.add(new Object[]{key.column(i), i + 1, key.referenced() == null ? null : key.referenced().get(i)});
                            }
                        })),
                "referential_constraints", new SystemTable(cols(List.of("constraint_catalog", "constraint_schema",
                        "constraint_name", "unique_constraint_catalog", "unique_constraint_schema", "unique_constraint_name",
                        "match_option", "update_rule", "delete_rule"), List.of(SqlTypeName.VARCHAR, SqlTypeName.VARCHAR,
                        SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR,
                        SqlTypeName.VARCHAR, SqlTypeName.VARCHAR)),
                        InformationSchema::referentialRows),
                "sequences", new SystemTable(cols(List.of("sequence_catalog", "sequence_schema", "sequence_name", "data_type",
                        "numeric_precision", "numeric_precision_radix", "numeric_scale", "start_value", "minimum_value",
                        "maximum_value", "increment", "cycle_option"), List.of(SqlTypeName.VARCHAR, SqlTypeName.VARCHAR,
                        SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.INTEGER, SqlTypeName.INTEGER, SqlTypeName.INTEGER,
                        SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR)),
                        InformationSchema::sequenceRows),
                "schemata", new SystemTable(cols(List.of("catalog_name", "schema_name"), List.of(SqlTypeName.VARCHAR, SqlTypeName.VARCHAR)),
                        root -> {
                            List<Object[]> rows = new ArrayList<>();
                            for (String schema : schemaNames(root)) {
                                rows.add(new Object[]{CATALOG, schema});
                            }
                            return rows;
                        }),
                "tables", new SystemTable(cols(List.of("table_catalog", "table_schema", "table_name", "table_type"), List.of(SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR)),
                        InformationSchema::tableRows),
                "columns", new SystemTable(cols(List.of("table_catalog", "table_schema", "table_name", "column_name", "ordinal_position",
                        "is_nullable", "data_type", "character_maximum_length", "numeric_precision", "numeric_scale", "column_default",
                        "generation_expression"),
                        List.of(SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR,
                                SqlTypeName.INTEGER, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.INTEGER,
                                SqlTypeName.INTEGER, SqlTypeName.INTEGER, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR)),
                        InformationSchema::columnRows),
                "views", new SystemTable(cols(List.of("table_catalog", "table_schema", "table_name", "view_definition"), List.of(SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR, SqlTypeName.VARCHAR)),
                        root -> rows(root, (table, out) -> {
                            if (table.table() instanceof ViewTable view) {
                                out.add(new Object[]{view.getViewSql()});
                            }
                        })));
    }

    /**
     * The rows of {@code table_constraints} (each PRIMARY KEY, UNIQUE, FOREIGN KEY and CHECK
     * constraint: its catalog, schema and name, its table's catalog, schema and name, its type,
     * is_deferrable, initially_deferred and enforced) by schema and table, each followed by the
     * constraint's definition as PostgreSQL's {@code pg_get_constraintdef} writes it ({@link PgCatalog}).
     */
    static List<Object[]> tableConstraintRows(DataContext root) {
        List<Object[]> rows = constraintRows(root, (key, out) -> out.add(new Object[]{key.type(), "NO", "NO", "YES", key.definition()}));
        rows.addAll(checkRows(root, (table, check) -> new Object[]{CATALOG, table.schema(), check.name(), CATALOG,
                table.schema(), table.name(), "CHECK", "NO", "NO", "YES", "CHECK (" + check.expression() + ")"}));
        // a table's checks after its keys (a stable sort by schema and table)
        rows.sort(Comparator.comparing((Object[] r) -> (String) r[4]).thenComparing(r -> (String) r[5]));
        return rows;
    }

    private static List<Object[]> withoutDefinitions(List<Object[]> rows) {
        return rows.stream().map(r -> java.util.Arrays.copyOf(r, r.length - 1)).toList();
    }

    /**
     * The rows of {@code columns}: each column of each table and view (catalog, schema, table,
     * column, ordinal_position, is_nullable, data_type, length, precision, scale, column_default,
     * generation_expression), by schema and table.
     */
    static List<Object[]> columnRows(DataContext root) {
        return rows(root, (table, out) -> {
            RelDataType rowType;
            try {
                rowType = table.table().getRowType(root.getTypeFactory());
            } catch (RuntimeException e) {
                return; // a view whose query no longer plans (a table it reads was dropped): no columns
            }
            for (RelDataTypeField f : rowType.getFieldList()) {
                RelDataType t = f.getType();
                boolean chars = SqlTypeName.CHAR_TYPES.contains(t.getSqlTypeName())
                        || SqlTypeName.BINARY_TYPES.contains(t.getSqlTypeName()); // in bytes, as SQL Server gives
                boolean numeric = SqlTypeName.NUMERIC_TYPES.contains(t.getSqlTypeName());
                out.add(new Object[]{f.getName(), f.getIndex() + 1, t.isNullable() ? "YES" : "NO",
                        t.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE ? "TIMESTAMP WITH TIME ZONE"
                                : t.getSqlTypeName().getName(),
                        chars && t.getPrecision() != RelDataType.PRECISION_NOT_SPECIFIED ? t.getPrecision() : null,
                        numeric ? t.getPrecision() : null,
                        numeric && t.getScale() != RelDataType.SCALE_NOT_SPECIFIED ? t.getScale() : null,
                        table.table() instanceof NumacolTable n && f.getIndex() < n.table().schema().size()
                                ? columnDefault(n.table().schema().column(f.getIndex()), numeric) : null,
                        null}); // generation_expression: numacol has no generated (computed) columns
            }
        });
    }

    /** The rows of {@code tables}: each table and view of each schema (catalog, schema, name, table_type), sorted. */
    static List<Object[]> tableRows(DataContext root) {
        return rows(root, (table, out) -> out.add(new Object[]{type(table.table())}));
    }

    /** Each sequence of the connection's database, by schema and name, as PostgreSQL lists it. */
    @SuppressWarnings("deprecation") // as in rows
    private static List<Object[]> sequenceRows(DataContext root) {
        SchemaPlus main = root.getRootSchema().getSubSchema(NumacolSchema.NAME);
        NumacolSchema numacol = main == null ? null : main.unwrap(NumacolSchema.class);
        if (numacol == null) {
            return List.of();
        }
        List<Object[]> rows = new ArrayList<>();
        numacol.database().catalog().sequences().stream().map(NamedSequence::def)
                .sorted(Comparator.comparing(SequenceDef::schema).thenComparing(SequenceDef::name))
                .forEach(d -> rows.add(new Object[]{CATALOG, d.schema(), d.name(), d.type().toLowerCase(Locale.ROOT),
                        switch (d.type()) {
                            case "SMALLINT" -> 16;
                            case "INTEGER" -> 32;
                            default -> 64;
                        }, 2, 0, Long.toString(d.start()), Long.toString(d.minValue()), Long.toString(d.maxValue()),
                        Long.toString(d.increment()), d.cycle() ? "YES" : "NO"}));
        return rows;
    }

    /**
     * A PRIMARY KEY, UNIQUE or FOREIGN KEY constraint of a table, its columns named; a foreign
     * key's {@code referenced} gives each column's place (from 1) in the key of the parent it
     * references, null for the others; {@code definition} is it as PostgreSQL writes it ("PRIMARY KEY (a, b)").
     */
    private record Key(String name, String type, List<String> columns, List<Integer> referenced, String definition) {
        String column(int i) {
            return columns.get(i);
        }
    }

    /**
     * Each foreign key of each numacol table, as PostgreSQL lists it: the parent key it references
     * (the parent's PRIMARY KEY or UNIQUE constraint of the referenced columns), MATCH NONE (SQL's
     * name for MATCH SIMPLE) and its actions as SQL spells them (NO ACTION, CASCADE, SET NULL ...).
     */
    private static List<Object[]> referentialRows(DataContext root) {
        NumacolSchema numacol = main(root);
        if (numacol == null) {
            return List.of();
        }
        List<Object[]> rows = new ArrayList<>();
        for (io.numacol.storage.Table t : numacol.database().catalog().tables()) {
            for (TableSchema.ForeignKeyDef f : t.schema().foreignKeys()) {
                TableSchema.KeyDef key = parentKey(numacol, f);
                rows.add(new Object[]{CATALOG, t.schemaName(), f.name(), CATALOG, f.parentSchema(), key == null ? null : key.name(),
                        "NONE", f.onUpdate().sql(), f.onDelete().sql()});
            }
        }
        rows.sort(Comparator.comparing((Object[] r) -> (String) r[1]).thenComparing(r -> (String) r[2]));
        return rows;
    }

    /** The PRIMARY KEY or UNIQUE constraint of {@code f}'s parent whose columns it references, or null. */
    private static TableSchema.KeyDef parentKey(NumacolSchema numacol, TableSchema.ForeignKeyDef f) {
        io.numacol.storage.Table parent = numacol.database().catalog().find(f.parentSchema(), f.parentTable()).orElse(null);
        if (parent == null) {
            return null;
        }
        return parent.schema().keyOn(f.parentColumns()).orElse(null);
    }

    /**
     * For each PRIMARY KEY and UNIQUE constraint of each numacol table, the rows {@code details}
     * makes of it, each prefixed as PostgreSQL's are: the constraint's catalog, schema and name,
     * then its table's catalog, schema and name.
     */
    private static List<Object[]> constraintRows(DataContext root, BiConsumer<Key, List<Object[]>> details) {
        List<Object[]> rows = new ArrayList<>();
        for (Object[] row : rows(root, (table, out) -> {
            if (!(table.table() instanceof NumacolTable numacol)) {
                return; // a view or a system table has no keys
            }
            TableSchema schema = numacol.table().schema();
            List<Key> keys = new ArrayList<>();
            schema.keys().stream().sorted(Comparator.comparing(k -> !k.primary())).forEach(k -> {
                List<String> columns = k.columns().stream().map(c -> schema.column(c).name()).toList();
                String type = k.primary() ? "PRIMARY KEY" : "UNIQUE";
                keys.add(new Key(k.name(), type, columns, null, type + " (" + String.join(", ", columns) + ")"));
            });
            NumacolSchema numacolSchema = main(root);
            for (TableSchema.ForeignKeyDef f : schema.foreignKeys()) {
                TableSchema.KeyDef parentKey = numacolSchema == null ? null : parentKey(numacolSchema, f);
                List<Integer> referenced = new ArrayList<>();
                for (String column : f.parentColumns()) {
                    int at = -1;
                    if (parentKey != null) {
                        io.numacol.storage.Table parent = numacolSchema.database().catalog().find(f.parentSchema(), f.parentTable())
                                .orElseThrow();
                        for (int i = 0; i < parentKey.columns().size(); i++) {
                            if (parent.schema().column(parentKey.columns().get(i)).name().equalsIgnoreCase(column)) {
                                at = i + 1;
                            }
                        }
                    }
                    referenced.add(at < 0 ? null : at);
                }
                List<String> columns = f.columns().stream().map(c -> schema.column(c).name()).toList();
                keys.add(new Key(f.name(), "FOREIGN KEY", columns, referenced, "FOREIGN KEY (" + String.join(", ", columns)
                        + ") REFERENCES " + f.parentTable() + "(" + String.join(", ", f.parentColumns()) + ")"));
            }
            keys.forEach(key -> {
                List<Object[]> own = new ArrayList<>();
                details.accept(key, own);
                for (Object[] detail : own) {
                    Object[] withName = new Object[1 + detail.length];
                    withName[0] = key.name();
                    System.arraycopy(detail, 0, withName, 1, detail.length);
                    out.add(withName);
                }
            });
        })) {
            // rows gives catalog, schema, table, constraint name, details
            Object[] ordered = new Object[row.length + 2];
            ordered[0] = row[0];
            ordered[1] = row[1];
            ordered[2] = row[3];
            ordered[3] = row[0];
            ordered[4] = row[1];
            ordered[5] = row[2];
            System.arraycopy(row, 4, ordered, 6, row.length - 4);
            rows.add(ordered);
        }
        return rows;
    }

    /** For each CHECK constraint of each numacol table (its schema's and its name sorted), the row {@code row} makes of it. */
    private static List<Object[]> checkRows(DataContext root, BiFunction<Named, TableSchema.CheckDef, Object[]> row) {
        List<Object[]> rows = new ArrayList<>();
        rows(root, (table, out) -> {
            if (table.table() instanceof NumacolTable numacol) {
                numacol.table().schema().checks().forEach(check -> rows.add(row.apply(table, check)));
            }
        });
        return rows;
    }

    /** The connection's numacol schema, or null. */
    @SuppressWarnings("deprecation") // as in rows
    static NumacolSchema main(DataContext root) {
        SchemaPlus main = root.getRootSchema().getSubSchema(NumacolSchema.NAME);
        return main == null ? null : main.unwrap(NumacolSchema.class);
    }

    private static List<SystemTable.Col> cols(List<String> names, List<SqlTypeName> types) {
        List<SystemTable.Col> cols = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            cols.add(SystemTable.col(names.get(i), types.get(i)));
        }
        return cols;
    }

    /** A table of a schema, as the rows above are made from. */
    private record Named(String schema, String name, Table table) {
    }

    /**
     * For each table of each schema, sorted, the rows {@code details} makes of it, each prefixed
     * with the catalog, the schema and the table's name.
     */
    @SuppressWarnings("deprecation") // Calcite 1.42's lookups by name have no other form for SchemaPlus yet
    private static List<Object[]> rows(DataContext root, BiConsumer<Named, List<Object[]>> details) {
        SchemaPlus rootSchema = root.getRootSchema();
        List<Object[]> rows = new ArrayList<>();
        for (String schemaName : schemaNames(root)) {
            SchemaPlus schema = rootSchema.getSubSchema(schemaName);
            if (schema == null) {
                continue;
            }
            for (String tableName : new TreeSet<>(schema.getTableNames())) {
                Table table = schema.getTable(tableName);
                if (table == null) {
                    continue;
                }
                List<Object[]> own = new ArrayList<>();
                details.accept(new Named(schemaName, tableName, table), own);
                for (Object[] detail : own) {
                    Object[] row = new Object[3 + detail.length];
                    row[0] = CATALOG;
                    row[1] = schemaName;
                    row[2] = tableName;
                    System.arraycopy(detail, 0, row, 3, detail.length);
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    /** The connection's schemas, sorted; not Calcite's own {@code metadata}, which numacol does not keep. */
    @SuppressWarnings("deprecation") // as in rows
    static SortedSet<String> schemaNames(DataContext root) {
        TreeSet<String> names = new TreeSet<>(root.getRootSchema().getSubSchemaNames());
        names.remove("metadata");
        return names;
    }

    private static String type(Table table) {
        if (table instanceof ViewTable) {
            return "VIEW";
        }
        return table.getJdbcTableType() == Schema.TableType.SYSTEM_TABLE ? "SYSTEM TABLE" : "BASE TABLE";
    }

    /**
     * A column's DEFAULT as SQL text, as PostgreSQL shows it: an expression as written, a literal
     * value as a literal (a number or boolean bare, anything else quoted), null for none.
     */
    public static String columnDefault(io.numacol.storage.TableSchema.ColumnDef column, boolean numeric) {
        if (column.defaultText() == null || column.defaultExpression()) {
            return column.defaultText();
        }
        String text = column.defaultText();
        return numeric || text.equalsIgnoreCase("TRUE") || text.equalsIgnoreCase("FALSE") ? text : "'" + text.replace("'", "''") + "'";
    }
}
