package io.numacol.checkpoint;

import io.numacol.storage.CommentDef;
import io.numacol.storage.IndexDef;
import io.numacol.storage.Partitioning;
import io.numacol.storage.Sequence;
import io.numacol.storage.SequenceDef;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.ViewDef;
import io.numacol.storage.types.ColumnType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The whole catalog as one value: its schemas, tables (with their part files, in a checkpoint),
 * views, indexes and sequences, and the durable table id the next CREATE TABLE gets. A {@link Manifest}
 * holds one, with the part files of the checkpoint; the write-ahead log holds one after each DDL
 * ({@code LogRecord.CatalogState}), as the bytes of {@link #encode}, which replay installs in
 * the transaction's place.
 *
 * <p>The encoding, little-endian: magic "NUMACOLC" (8 bytes), format version (u32, {@value
 * #VERSION}), body length (u32), the body, CRC32C (u32) of everything before it; the manifest
 * frames the same body with its own magic. The body: next table id (u64); schemas (u32; each a
 * name); tables (u32; each as below); views (u32; each schema, name, sql, columns (u32; each a
 * name), the schema its names were resolved in); indexes (u32; each schema, name, table,
 * columns (u32; each a name), unique u8); sequences (u32; each schema, name, type, start u64,
 * increment u64, minimum u64, maximum u64, cycle u8, next number u64, exhausted u8); comments (version 5 on: u32; each
 * schema, table, u8 1 then the column's name or u8 0 for the table's own, text). A table: id (u64), schema, name, columns (u32; each
 * name, type as SQL spells it, nullable u8, default (u8 0 for none, or 1 then the text, then, version 4 on,
 * u8 1 when the text is a SQL expression, 0 when a literal value: before version 4 every default was a literal), identity
 * (u8 0 for none, or 1 then always u8, the sequence's start u64, increment u64 and next number
 * u64)), keys (u32; each name (u8 0 for none, or 1 then the name), columns (u32; each a position
 * u32), primary u8), foreign keys (version 2 on: u32; each name, columns (u32; each a position u32), parent
 * schema, parent table, parent columns (u32; each a name), then (version 4 on) the ON DELETE and ON
 * UPDATE actions (each a {@code TableSchema.ReferentialAction}'s name; before version 4 both NO
 * ACTION, the only ones taken then)), checks (version 3 on: u32; each name,
 * expression), placement, partitioning (u8 0 for none, or 1 then kind name, count u32, key
 * columns u32 with each position u32 and type, bounds u32 with each a tag 'L', 'D' or 'S' and the
 * value), parts (u32; each file name, size u64, checksum u32). Strings are a u32 length and UTF-8.
 *
 * <p>An identity column's sequence is kept as the number it would give next when the image is
 * encoded; numbers taken after that are the log's to carry (see {@link Sequence#advancePast}). A
 * named sequence is kept at its reservation ({@link SequenceEntry}), which a number taken logs
 * ahead of itself, as no row needs to carry it.
 *
 * @param nextTableId the durable id the next table created gets: positive, above every table's id
 * @param schemas     the catalog's schema names as spelled, in catalog order
 * @param tables      in catalog order; no two of the same schema and name, or id, and no part file
 *                    named twice
 * @param views       in catalog order
 * @param indexes     in catalog order
 * @param sequences   in catalog order
 * @param comments    COMMENT ON's texts, each of a table in {@code tables}
 */
public record CatalogImage(long nextTableId, List<String> schemas, List<TableEntry> tables, List<ViewDef> views,
                           List<IndexDef> indexes, List<SequenceEntry> sequences, List<CommentDef> comments) {
    /** The format version this build writes and reads. */
    public static final int VERSION = 5;
    /**
     * The oldest format version this build reads: version 1 had no foreign keys and no checks,
     * version 2 no checks, version 3 neither DEFAULT expressions nor referential actions (a reader
     * of 3 would take an expression's text for a literal value, so it refuses 4), version 4 no comments.
     */
    static final int OLDEST_VERSION = 1;
    private static final byte[] MAGIC = "NUMACOLC".getBytes(StandardCharsets.US_ASCII);
    /** Where a catalog image that {@link #decode(byte[])} refuses was found, in its exception's message. */
    static final String IN_LOG = "catalog image in the write-ahead log";

    public CatalogImage {
        if (nextTableId <= 0) {
            throw new IllegalArgumentException("the next durable table id is positive, got " + nextTableId);
        }
        schemas = List.copyOf(schemas);
        tables = List.copyOf(tables);
        views = List.copyOf(views);
        indexes = List.copyOf(indexes);
        sequences = List.copyOf(sequences);
        comments = List.copyOf(comments);
        Set<Long> ids = new HashSet<>();
        Set<List<String>> names = new HashSet<>();
        Set<String> files = new HashSet<>();
        for (TableEntry t : tables) {
            if (!names.add(List.of(t.schemaName(), t.name()))) {
                throw new IllegalArgumentException("table " + t.schemaName() + "." + t.name() + " is in the catalog twice");
            }
            if (!ids.add(t.id())) {
                throw new IllegalArgumentException("table " + t.schemaName() + "." + t.name() + " has id " + t.id()
                        + ", which another table has");
            }
            if (t.id() >= nextTableId) {
                throw new IllegalArgumentException("table " + t.schemaName() + "." + t.name() + " has id " + t.id()
                        + ", which the next table created would get again (next id " + nextTableId + ")");
            }
            for (PartRef p : t.parts()) {
                if (!files.add(p.fileName())) {
                    throw new IllegalArgumentException("part file " + p.fileName() + " is named by two tables");
                }
            }
        }
    }

    /** A catalog without comments. */
    public CatalogImage(long nextTableId, List<String> schemas, List<TableEntry> tables, List<ViewDef> views, List<IndexDef> indexes,
                        List<SequenceEntry> sequences) {
        this(nextTableId, schemas, tables, views, indexes, sequences, List.of());
    }

    /** A catalog without sequences. */
    public CatalogImage(long nextTableId, List<String> schemas, List<TableEntry> tables, List<ViewDef> views, List<IndexDef> indexes) {
        this(nextTableId, schemas, tables, views, indexes, List.of());
    }

    /** The catalog of a new database: no tables, views, indexes or sequences, table ids from 1. */
    public static CatalogImage empty() {
        return new CatalogImage(1, List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
    }

    /** The image's bytes: frame, body, checksum (see the class comment). */
    public byte[] encode() {
        FieldWriter body = new FieldWriter();
        encodeBody(body);
        return Frame.wrap(MAGIC, VERSION, body);
    }

    /**
     * The image {@link #encode} gave these bytes, verified. The bytes are taken to be a logged
     * {@code CatalogState}'s, so the exceptions name "{@value #IN_LOG}" where a file's name
     * would be, and have no {@link CheckpointException#file}.
     *
     * @throws DamagedFileException        when the checksum or the structure is wrong
     * @throws UnsupportedVersionException when it is of another format version
     */
    public static CatalogImage decode(byte[] bytes) throws CheckpointException {
        return decode(bytes, Origin.described(IN_LOG));
    }

    static CatalogImage decode(byte[] bytes, Origin origin) throws CheckpointException {
        FieldReader body = Frame.open(bytes, MAGIC, OLDEST_VERSION, VERSION, "catalog image", origin);
        return decodeWhole(body, CatalogImage::decodeBody);
    }

    /** Decodes all of {@code body} with {@code decoder}, refusing what it leaves or refuses as damage. */
    static <T> T decodeWhole(FieldReader body, Decoder<T> decoder) throws DamagedFileException {
        try {
            T value = decoder.decode(body);
            body.expectEnd();
            return value;
        } catch (IllegalArgumentException e) {
            // the checksum held, so a writer wrote what a reader refuses: still nothing to trust
            throw body.damaged(e.getMessage());
        }
    }

    /** Reads a value from fields. */
    @FunctionalInterface
    interface Decoder<T> {
        T decode(FieldReader in) throws DamagedFileException;
    }

    /** The body's fields, which the manifest embeds after its lsn. */
    void encodeBody(FieldWriter out) {
        out.putLong(nextTableId).putInt(schemas.size());
        schemas.forEach(out::putString);
        out.putInt(tables.size());
        for (TableEntry t : tables) {
            encodeTable(t, out);
        }
        out.putInt(views.size());
        for (ViewDef v : views) {
            out.putString(v.schema()).putString(v.name()).putString(v.sql());
            putNames(v.columns(), out);
            out.putString(v.resolvedIn());
        }
        out.putInt(indexes.size());
        for (IndexDef i : indexes) {
            out.putString(i.schema()).putString(i.name()).putString(i.table());
            putNames(i.columns(), out);
            out.putBoolean(i.unique());
        }
        out.putInt(sequences.size());
        for (SequenceEntry q : sequences) {
            SequenceDef d = q.def();
            out.putString(d.schema()).putString(d.name()).putString(d.type()).putLong(d.start()).putLong(d.increment())
                    .putLong(d.minValue()).putLong(d.maxValue()).putBoolean(d.cycle()).putLong(q.next()).putBoolean(q.exhausted());
        }
        out.putInt(comments.size());
        for (CommentDef c : comments) {
            out.putString(c.schema()).putString(c.table()).putBoolean(c.column() != null);
            if (c.column() != null) {
                out.putString(c.column());
            }
            out.putString(c.text());
        }
    }

    static CatalogImage decodeBody(FieldReader in) throws DamagedFileException {
        long nextTableId = in.getLong();
        List<String> schemas = getNames(in, "schema count");
        int tableCount = in.getCount("table count");
        List<TableEntry> tables = new ArrayList<>();
        for (int t = 0; t < tableCount; t++) {
            tables.add(decodeTable(in));
        }
        int viewCount = in.getCount("view count");
        List<ViewDef> views = new ArrayList<>();
        for (int v = 0; v < viewCount; v++) {
            views.add(new ViewDef(in.getString(), in.getString(), in.getString(), getNames(in, "view column count"), in.getString()));
        }
        int indexCount = in.getCount("index count");
        List<IndexDef> indexes = new ArrayList<>();
        for (int i = 0; i < indexCount; i++) {
            indexes.add(new IndexDef(in.getString(), in.getString(), in.getString(), getNames(in, "index column count"),
                    in.getBoolean()));
        }
        int sequenceCount = in.getCount("sequence count");
        List<SequenceEntry> sequences = new ArrayList<>();
        for (int q = 0; q < sequenceCount; q++) {
            SequenceDef def = new SequenceDef(in.getString(), in.getString(), in.getString(), in.getLong(), in.getLong(),
                    in.getLong(), in.getLong(), in.getBoolean());
            sequences.add(new SequenceEntry(def, in.getLong(), in.getBoolean()));
        }
        int commentCount = in.version() >= 5 ? in.getCount("comment count") : 0;
        List<CommentDef> comments = new ArrayList<>();
        for (int c = 0; c < commentCount; c++) {
            String schema = in.getString();
            String table = in.getString();
            String column = in.getBoolean() ? in.getString() : null;
            comments.add(new CommentDef(schema, table, column, in.getString()));
        }
        return new CatalogImage(nextTableId, schemas, tables, views, indexes, sequences, comments);
    }

    private static void encodeTable(TableEntry t, FieldWriter out) {
        out.putLong(t.id()).putString(t.schemaName()).putString(t.name()).putInt(t.columns().size());
        for (ColumnDef c : t.columns()) {
            out.putString(c.name()).putString(c.type().toString()).putBoolean(c.nullable());
            putOptionalString(c.defaultText(), out);
            if (c.defaultText() != null) {
                out.putBoolean(c.defaultExpression());
            }
            TableSchema.Identity identity = c.identity();
            out.putBoolean(identity != null);
            if (identity != null) {
                Sequence s = identity.sequence();
                out.putBoolean(identity.always()).putLong(s.start()).putLong(s.increment()).putLong(s.peek());
            }
        }
        out.putInt(t.keys().size());
        for (TableSchema.KeyDef k : t.keys()) {
            putOptionalString(k.name(), out);
            out.putInt(k.columns().size());
            k.columns().forEach(out::putInt);
            out.putBoolean(k.primary());
        }
        out.putInt(t.foreignKeys().size());
        for (TableSchema.ForeignKeyDef f : t.foreignKeys()) {
            out.putString(f.name()).putInt(f.columns().size());
            f.columns().forEach(out::putInt);
            out.putString(f.parentSchema()).putString(f.parentTable());
            putNames(f.parentColumns(), out);
            out.putString(f.onDelete().name()).putString(f.onUpdate().name());
        }
        out.putInt(t.checks().size());
        for (TableSchema.CheckDef c : t.checks()) {
            out.putString(c.name()).putString(c.expression());
        }
        out.putString(t.placement());
        encodePartitioning(t.partitioning(), out);
        out.putInt(t.parts().size());
        for (PartRef p : t.parts()) {
            out.putString(p.fileName()).putLong(p.size()).putInt(p.checksum());
        }
    }

    private static TableEntry decodeTable(FieldReader in) throws DamagedFileException {
        long id = in.getLong();
        String schemaName = in.getString();
        String name = in.getString();
        int columnCount = in.getCount("column count");
        List<ColumnDef> columns = new ArrayList<>();
        for (int c = 0; c < columnCount; c++) {
            String column = in.getString();
            ColumnType type = ColumnType.parse(in.getString());
            boolean nullable = in.getBoolean();
            String defaultText = getOptionalString(in);
            boolean defaultExpression = defaultText != null && in.version() >= 4 && in.getBoolean();
            TableSchema.Identity identity = null;
            if (in.getBoolean()) {
                boolean always = in.getBoolean();
                identity = new TableSchema.Identity(always, Sequence.restored(in.getLong(), in.getLong(), in.getLong()));
            }
            columns.add(new ColumnDef(column, type, nullable, defaultText, identity, defaultExpression));
        }
        int keyCount = in.getCount("key count");
        List<TableSchema.KeyDef> keys = new ArrayList<>();
        for (int k = 0; k < keyCount; k++) {
            String key = getOptionalString(in);
            int positions = in.getCount("key column count");
            List<Integer> at = new ArrayList<>();
            for (int p = 0; p < positions; p++) {
                at.add(in.getInt());
            }
            keys.add(new TableSchema.KeyDef(key, at, in.getBoolean()));
        }
        List<TableSchema.ForeignKeyDef> foreignKeys = new ArrayList<>();
        int foreignKeyCount = in.version() >= 2 ? in.getCount("foreign key count") : 0;
        for (int f = 0; f < foreignKeyCount; f++) {
            String key = in.getString();
            int positions = in.getCount("foreign key column count");
            List<Integer> at = new ArrayList<>();
            for (int p = 0; p < positions; p++) {
                at.add(in.getInt());
            }
            String parentSchema = in.getString();
            String parentTable = in.getString();
            List<String> parentColumns = getNames(in, "referenced column count");
            TableSchema.ReferentialAction onDelete = TableSchema.ReferentialAction.NO_ACTION;
            TableSchema.ReferentialAction onUpdate = TableSchema.ReferentialAction.NO_ACTION;
            if (in.version() >= 4) {
                onDelete = action(in);
                onUpdate = action(in);
            }
            foreignKeys.add(new TableSchema.ForeignKeyDef(key, at, parentSchema, parentTable, parentColumns, onDelete, onUpdate));
        }
        int checkCount = in.version() >= 3 ? in.getCount("check count") : 0;
        List<TableSchema.CheckDef> checks = new ArrayList<>();
        for (int c = 0; c < checkCount; c++) {
            checks.add(new TableSchema.CheckDef(in.getString(), in.getString()));
        }
        String placement = in.getString();
        Partitioning partitioning = decodePartitioning(in);
        int partCount = in.getCount("part count");
        List<PartRef> parts = new ArrayList<>();
        for (int p = 0; p < partCount; p++) {
            parts.add(new PartRef(in.getString(), in.getLong(), in.getInt()));
        }
        return new TableEntry(id, schemaName, name, columns, keys, foreignKeys, placement, partitioning, parts, checks);
    }

    private static void encodePartitioning(Partitioning p, FieldWriter out) {
        out.putBoolean(p != null);
        if (p == null) {
            return;
        }
        out.putString(p.kind().name()).putInt(p.count()).putInt(p.keyColumns().length);
        for (int k = 0; k < p.keyColumns().length; k++) {
            out.putInt(p.keyColumns()[k]).putString(p.keyTypes().get(k).toString());
        }
        out.putInt(p.bounds().size());
        for (Object bound : p.bounds()) {
            switch (bound) {
                case Long l -> out.putByte('L').putLong(l);
                case Double d -> out.putByte('D').putLong(Double.doubleToRawLongBits(d));
                case String s -> out.putByte('S').putString(s);
                default -> throw new IllegalArgumentException("a range bound is a stored value, not a " + bound.getClass().getName());
            }
        }
    }

    private static TableSchema.ReferentialAction action(FieldReader in) throws DamagedFileException {
        String name = in.getString();
        for (TableSchema.ReferentialAction a : TableSchema.ReferentialAction.values()) {
            if (a.name().equals(name)) {
                return a;
            }
        }
        throw in.damaged("a foreign key's action named " + name + ", which is none");
    }

    private static Partitioning decodePartitioning(FieldReader in) throws DamagedFileException {
        if (!in.getBoolean()) {
            return null;
        }
        Partitioning.Kind kind = Partitioning.Kind.valueOf(in.getString());
        int count = in.getInt();
        int keyCount = in.getCount("key count");
        int[] keys = new int[keyCount];
        List<ColumnType> types = new ArrayList<>();
        for (int k = 0; k < keyCount; k++) {
            keys[k] = in.getInt();
            types.add(ColumnType.parse(in.getString()));
        }
        int boundCount = in.getCount("bound count");
        List<Object> bounds = new ArrayList<>();
        for (int b = 0; b < boundCount; b++) {
            int tag = in.getByte();
            bounds.add(switch (tag) {
                case 'L' -> in.getLong();
                case 'D' -> Double.longBitsToDouble(in.getLong());
                case 'S' -> in.getString();
                default -> throw in.damaged("a range bound tagged " + tag);
            });
        }
        return new Partitioning(kind, count, keys, types, bounds);
    }

    private static void putNames(List<String> names, FieldWriter out) {
        out.putInt(names.size());
        names.forEach(out::putString);
    }

    private static List<String> getNames(FieldReader in, String what) throws DamagedFileException {
        int count = in.getCount(what);
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            names.add(in.getString());
        }
        return names;
    }

    /** A string that may be null: a flag, then the string when the flag is set. */
    private static void putOptionalString(String value, FieldWriter out) {
        out.putBoolean(value != null);
        if (value != null) {
            out.putString(value);
        }
    }

    private static String getOptionalString(FieldReader in) throws DamagedFileException {
        return in.getBoolean() ? in.getString() : null;
    }

    @Override
    public String toString() {
        return "CatalogImage(next table id " + nextTableId + ", " + schemas.size() + " schemas, " + tables.size() + " tables, "
                + views.size() + " views, " + indexes.size() + " indexes, " + sequences.size() + " sequences)";
    }
}
