package io.numacol.export;

import io.numacol.database.Database;
import io.numacol.placement.Placement;
import io.numacol.storage.Catalog;
import io.numacol.storage.CatalogView;
import io.numacol.storage.CommentDef;
import io.numacol.storage.IndexDef;
import io.numacol.storage.NamedSequence;
import io.numacol.storage.SequenceDef;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.ViewDef;
import io.numacol.storage.types.ColumnType;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * EXPORT DATABASE 'dir': the database's committed contents at one instant (every table read at
 * one read timestamp), written to {@code dir} as DuckDB's EXPORT DATABASE writes it: {@code
 * schema.sql} creates the schemas, sequences (at the number each gives next), tables (columns,
 * defaults, identities at their next number, PRIMARY KEY, UNIQUE and CHECK, placement), views,
 * indexes and COMMENT ONs; a CSV file per table holds its rows (a header line, RFC 4180, NULL as an empty field
 * and the empty string as {@code ""}, each value as COPY reads it back); {@code load.sql} COPYs
 * each file into its table, then adds the foreign keys, so that rows load in any order.
 */
public final class DatabaseExport {
    static final String SCHEMA_SCRIPT = "schema.sql";
    static final String LOAD_SCRIPT = "load.sql";

    private DatabaseExport() {
    }

    /** Writes the export into {@code dir} (created if missing; files of the same names replaced); returns the rows written. */
    public static long write(Database database, Path dir) {
        try {
            Files.createDirectories(dir);
            Catalog catalog = database.catalog();
            try (CatalogView view = catalog.beginRead()) {
                return CatalogView.runIn(view, () -> write(database, view, dir));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("EXPORT DATABASE could not write " + dir + ": " + e.getMessage(), e);
        }
    }

    private static long write(Database database, CatalogView view, Path dir) throws IOException {
        Catalog catalog = database.catalog();
        // the view's tables, each as the view sees it (one an ALTER replaced since is still readable in it)
        List<Table> tables = view.tables().stream()
                .sorted(Comparator.comparing(Table::schemaName).thenComparing(Table::name)).toList();
        StringBuilder schema = new StringBuilder("-- numacol EXPORT DATABASE: run with IMPORT DATABASE, or this, then load.sql\n");
        for (String s : catalog.schemas()) {
            if (!s.equalsIgnoreCase(Catalog.MAIN)) {
                schema.append("CREATE SCHEMA ").append(quote(s)).append(";\n");
            }
        }
        for (NamedSequence q : catalog.sequences()) {
            schema.append(createSequence(q)).append(";\n");
        }
        for (Table t : tables) {
            schema.append(createTable(database, t)).append(";\n");
        }
        for (ViewDef v : view.views()) {
            schema.append("SET SCHEMA ").append(quote(v.resolvedIn())).append(";\n");
            schema.append("CREATE VIEW ").append(name(v.schema(), v.name()));
            if (!v.columns().isEmpty()) {
                schema.append(" (").append(v.columns().stream().map(DatabaseExport::quote).collect(Collectors.joining(", "))).append(')');
            }
            schema.append(" AS ").append(v.sql()).append(";\n");
        }
        if (!view.views().isEmpty()) {
            schema.append("SET SCHEMA ").append(quote(Catalog.MAIN)).append(";\n");
        }
        for (IndexDef ix : catalog.indexes()) {
            if (tables.stream().noneMatch(t -> t.schemaName().equalsIgnoreCase(ix.schema()) && t.name().equalsIgnoreCase(ix.table()))) {
                continue; // of a table created after the view began
            }
            schema.append("CREATE ").append(ix.unique() ? "UNIQUE " : "").append("INDEX ").append(quote(ix.name())).append(" ON ")
                    .append(name(ix.schema(), ix.table())).append(" (")
                    .append(ix.columns().stream().map(DatabaseExport::quote).collect(Collectors.joining(", "))).append(");\n");
        }
        for (CommentDef c : catalog.comments()) {
            if (tables.stream().noneMatch(t -> t.schemaName().equalsIgnoreCase(c.schema()) && t.name().equalsIgnoreCase(c.table()))) {
                continue; // of a table created after the view began
            }
            schema.append("COMMENT ON ").append(c.column() == null ? "TABLE " + name(c.schema(), c.table())
                    : "COLUMN " + name(c.schema(), c.table()) + "." + quote(c.column())).append(" IS ").append(literal(c.text())).append(";\n");
        }
        StringBuilder load = new StringBuilder("-- numacol EXPORT DATABASE: the CSV files are named relative to this file's directory\n");
        Set<String> files = new HashSet<>();
        long rows = 0;
        for (Table t : tables) {
            String file = fileName(t, files);
            rows += writeRows(t, dir.resolve(file));
            load.append("COPY ").append(name(t.schemaName(), t.name())).append(" FROM ").append(literal(file))
                    .append(" WITH (HEADER true);\n");
        }
        for (Table t : tables) {
            for (TableSchema.ForeignKeyDef f : t.schema().foreignKeys()) {
                load.append("ALTER TABLE ").append(name(t.schemaName(), t.name())).append(" ADD CONSTRAINT ").append(quote(f.name()))
                        .append(" FOREIGN KEY (").append(columns(t.schema(), f.columns())).append(") REFERENCES ")
                        .append(name(f.parentSchema(), f.parentTable())).append(" (")
                        .append(f.parentColumns().stream().map(DatabaseExport::quote).collect(Collectors.joining(", "))).append(")")
                        .append(" ON DELETE ").append(f.onDelete().sql()).append(" ON UPDATE ").append(f.onUpdate().sql()).append(";\n");
            }
        }
        Files.writeString(dir.resolve(SCHEMA_SCRIPT), schema, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(LOAD_SCRIPT), load, StandardCharsets.UTF_8);
        return rows;
    }

    private static String createSequence(NamedSequence q) {
        SequenceDef d = q.def();
        NamedSequence.Position at = q.position();
        // an exhausted sequence starts at its last number, which is then taken: it stays exhausted
        long start = at.exhausted() ? (d.increment() > 0 ? d.maxValue() : d.minValue()) : at.next();
        String create = "CREATE SEQUENCE " + name(d.schema(), d.name()) + " AS " + d.type() + " START WITH " + start
                + " INCREMENT BY " + d.increment() + " MINVALUE " + d.minValue() + " MAXVALUE " + d.maxValue()
                + (d.cycle() ? " CYCLE" : " NO CYCLE");
        return at.exhausted() && !d.cycle() ? create + ";\nSELECT nextval(" + literal(d.schema() + "." + d.name()) + ")" : create;
    }

    private static String createTable(Database database, Table t) {
        TableSchema schema = t.schema();
        List<String> parts = new ArrayList<>();
        for (TableSchema.ColumnDef c : schema.columns()) {
            StringBuilder col = new StringBuilder(quote(c.name())).append(' ').append(c.type());
            if (c.identity() != null) {
                col.append(c.identity().always() ? " GENERATED ALWAYS" : " GENERATED BY DEFAULT").append(" AS IDENTITY (START WITH ")
                        .append(c.identity().sequence().peek()).append(" INCREMENT BY ").append(c.identity().sequence().increment())
                        .append(')');
            } else {
                if (!c.nullable()) {
                    col.append(" NOT NULL");
                }
                if (c.defaultText() != null) { // an expression as written, which the import reads back as one
                    col.append(" DEFAULT ").append(c.defaultExpression() ? c.defaultText() : literal(c.defaultText()));
                }
            }
            parts.add(col.toString());
        }
        for (TableSchema.KeyDef k : schema.keys()) {
            parts.add((k.name() == null ? "" : "CONSTRAINT " + quote(k.name()) + " ") + (k.primary() ? "PRIMARY KEY (" : "UNIQUE (")
                    + columns(schema, k.columns()) + ")");
        }
        for (TableSchema.CheckDef c : schema.checks()) {
            parts.add("CONSTRAINT " + quote(c.name()) + " CHECK (" + c.expression() + ")");
        }
        Placement placement = database.placement(t);
        return "CREATE TABLE " + name(t.schemaName(), t.name()) + " (\n    " + String.join(",\n    ", parts) + "\n)"
                + (placement == null ? "" : " PLACEMENT " + placement);
    }

    /** The table's rows at the export's read timestamp as CSV; returns how many. */
    private static long writeRows(Table t, Path file) throws IOException {
        TableSchema schema = t.schema();
        long rows = 0;
        try (TableSnapshot snapshot = t.snapshot(); BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            List<String> header = new ArrayList<>();
            schema.columns().forEach(c -> header.add(field(c.name())));
            out.write(String.join(",", header));
            out.write('\n');
            StringBuilder line = new StringBuilder();
            for (TablePart p : snapshot.parts()) {
                for (int r = 0; r < p.rowCount(); r++) {
                    if (p.deleted().isDeleted(r)) {
                        continue;
                    }
                    line.setLength(0);
                    for (int c = 0; c < schema.size(); c++) {
                        if (c > 0) {
                            line.append(',');
                        }
                        Object value = p.column(c).value(r);
                        if (value != null) {
                            ColumnType type = schema.column(c).type();
                            line.append(field(type.codec().toText(type, value)));
                        }
                    }
                    line.append('\n');
                    out.append(line);
                    rows++;
                }
            }
        }
        return rows;
    }

    /** A CSV field: quoted when it holds a delimiter, quote or line break, is empty (else it would be NULL) or has edge spaces. */
    static String field(String text) {
        boolean quote = text.isEmpty() || !text.strip().equals(text);
        for (int i = 0; i < text.length() && !quote; i++) {
            char c = text.charAt(i);
            quote = c == ',' || c == '"' || c == '\n' || c == '\r';
        }
        return quote ? '"' + text.replace("\"", "\"\"") + '"' : text;
    }

    /** A file name of the table's own, a plain one (schema_table.csv outside main), not one taken already. */
    private static String fileName(Table t, Set<String> taken) {
        String base = (t.schemaName().equalsIgnoreCase(Catalog.MAIN) ? "" : t.schemaName() + "_") + t.name();
        base = base.replaceAll("[^A-Za-z0-9_-]", "_");
        String name = base + ".csv";
        for (int n = 2; !taken.add(name.toLowerCase(Locale.ROOT)); n++) {
            name = base + "_" + n + ".csv";
        }
        return name;
    }

    private static String columns(TableSchema schema, List<Integer> positions) {
        return positions.stream().map(c -> quote(schema.column(c).name())).collect(Collectors.joining(", "));
    }

    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    private static String name(String schema, String name) {
        return quote(schema) + "." + quote(name);
    }

    private static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }
}
