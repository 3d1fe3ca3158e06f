package io.numacol.checkpoint;

import io.numacol.storage.IndexDef;
import io.numacol.storage.Partitioning;
import io.numacol.storage.Sequence;
import io.numacol.storage.SequenceDef;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.ViewDef;
import io.numacol.storage.types.ColumnType;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Catalog images for the tests, and a comparison that sees through identity sequences. */
final class TestCatalogs {
    private TestCatalogs() {
    }

    static final List<ColumnDef> COLUMNS = List.of(
            new ColumnDef("id", ColumnType.bigint(), false),
            new ColumnDef("price", ColumnType.decimal(15, 2), true, "0.00", null),
            new ColumnDef("ratio", ColumnType.doubleType(), true),
            new ColumnDef("name ü", ColumnType.varchar(25), true, "", null),
            new ColumnDef("at", ColumnType.timestampTz(3), true, "it's 'quoted'", null),
            new ColumnDef("key", ColumnType.uuid(), true));

    static final List<TableSchema.KeyDef> KEYS = List.of(new TableSchema.KeyDef("plain_pkey", List.of(0), true),
            new TableSchema.KeyDef("plain_name_key", List.of(3, 1), false), new TableSchema.KeyDef(null, List.of(5), false));

    /** CHECK constraints as SQL text: quotes, a comment, several lines, letters beyond ASCII. */
    static final List<TableSchema.CheckDef> CHECKS = List.of(new TableSchema.CheckDef("plain_price_check", "price >= 0"),
            new TableSchema.CheckDef("name \"ü\" ok", "\"name ü\" <> 'it''s' -- not that\n  OR price IS NULL"));

    /** One to another schema's table, one to the table itself (names that are no file names). */
    static final List<TableSchema.ForeignKeyDef> FOREIGN_KEYS = List.of(
            new TableSchema.ForeignKeyDef("plain_ratio_fkey", List.of(2, 0), "sales", "by long", List.of("ratio", "id")),
            new TableSchema.ForeignKeyDef("to \"self\" ü", List.of(5), "main", "plain", List.of("id")));

    /**
     * Tables of every partitioning kind, RANGE bounds of each stored kind, names that are no file
     * names, keys, CHECK constraints, defaults, views, indexes and sequences (one exhausted, one at
     * the long range's ends); no identity column, so images compare with equals.
     */
    static CatalogImage image(String partPrefix) {
        List<TableEntry> tables = List.of(
                new TableEntry(1, "main", "plain", COLUMNS, KEYS, FOREIGN_KEYS, "RR", null,
                        List.of(new PartRef(partPrefix + "a.part", 1234, 0xCAFEBABE), new PartRef(partPrefix + "b.part", 0, 0)), CHECKS),
                new TableEntry(2, "main", "by hash/\"quoted\"", COLUMNS, List.of(), List.of(), "PP(4) BY HASH (id, name ü)",
                        Partitioning.hash(4, new int[] {0, 3}, List.of(ColumnType.bigint(), ColumnType.varchar(25))),
                        List.of(new PartRef(partPrefix + "c.part", 99, -1))),
                new TableEntry(5, "sales", "by long", COLUMNS, List.of(), List.of(), "PP(3) BY RANGE (id)",
                        Partitioning.range(3, 0, ColumnType.bigint(), List.of(-5L, 1L << 40)), List.of()),
                new TableEntry(4, "sales", "by double", COLUMNS, List.of(), List.of(), "PP(2) BY RANGE (ratio)",
                        Partitioning.range(2, 2, ColumnType.doubleType(), List.of(-0.5)), List.of()),
                new TableEntry(7, "sales", "by string", COLUMNS, List.of(), List.of(), "PP(3) BY RANGE (name ü)",
                        Partitioning.range(3, 3, ColumnType.varchar(25), List.of("", "日本")), List.of()),
                new TableEntry(8, "sales", "in turn", COLUMNS, List.of(), List.of(), "PP(2) ROUND ROBIN", Partitioning.roundRobin(2), List.of()),
                new TableEntry(Long.MAX_VALUE - 1, "main", "on node", COLUMNS.subList(0, 1), List.of(), List.of(), "NODE(1)", null, List.of()));
        List<ViewDef> views = List.of(new ViewDef("main", "v", "SELECT id FROM plain WHERE name = 'ü'", List.of("the id"), "main"),
                new ViewDef("sales", "w", "SELECT * FROM \"by long\"", List.of(), "sales"),
                new ViewDef("main", "elsewhere", "SELECT 1", List.of("a", "b"), "sales"));
        List<IndexDef> indexes = List.of(new IndexDef("main", "plain_name", "plain", List.of("name ü", "id"), false),
                new IndexDef("sales", "u", "by long", List.of("id"), true));
        List<SequenceEntry> sequences = List.of(
                new SequenceEntry(SequenceDef.withDefaults("main", "ids", "BIGINT", null, null, null, null, false), 33, false),
                new SequenceEntry(new SequenceDef("sales", "down \"ü\"", "SMALLINT", -1, -7, -100, 50, true), -43, false),
                new SequenceEntry(new SequenceDef("main", "done", "INTEGER", 1, 1, 1, 3, false), 3, true),
                new SequenceEntry(new SequenceDef("main", "widest", "BIGINT", Long.MIN_VALUE, 2, Long.MIN_VALUE, Long.MAX_VALUE, false),
                        Long.MAX_VALUE - 1, false));
        return new CatalogImage(Long.MAX_VALUE, List.of("main", "sales", "Ünï"), tables, views, indexes, sequences);
    }

    /** A table with an identity column of each kind, their sequences partly used. */
    static TableEntry identityTable(long id, String name) {
        Sequence always = new Sequence(100, 5);
        always.next();
        always.next();
        Sequence byDefault = new Sequence(-1, -3);
        byDefault.advancePast(-50);
        List<ColumnDef> columns = List.of(
                new ColumnDef("n", ColumnType.bigint(), false, null, new TableSchema.Identity(true, always)),
                new ColumnDef("m", ColumnType.integer(), false, null, new TableSchema.Identity(false, byDefault)),
                new ColumnDef("note", ColumnType.varchar(10), true, null, null),
                new ColumnDef("empty default", ColumnType.varchar(10), true, "", null));
        return new TableEntry(id, "main", name, columns, List.of(new TableSchema.KeyDef("t_pkey", List.of(0, 1), true)), List.of(), "RR",
                null, List.of());
    }

    /** Asserts {@code got} is {@code want} field by field, an identity by its kind and its sequence's numbers. */
    static void assertSameCatalog(CatalogImage got, CatalogImage want) {
        assertThat(got.nextTableId()).isEqualTo(want.nextTableId());
        assertThat(got.schemas()).isEqualTo(want.schemas());
        assertThat(got.views()).isEqualTo(want.views());
        assertThat(got.indexes()).isEqualTo(want.indexes());
        assertThat(got.sequences()).isEqualTo(want.sequences());
        assertThat(got.tables()).hasSameSizeAs(want.tables());
        for (int t = 0; t < want.tables().size(); t++) {
            TableEntry g = got.tables().get(t);
            TableEntry w = want.tables().get(t);
            assertThat(withoutIdentity(g)).as("table %s", w.name()).isEqualTo(withoutIdentity(w));
            assertThat(identities(g)).as("identities of %s", w.name()).isEqualTo(identities(w));
            assertThat(g.schema().keys()).isEqualTo(w.keys());
            assertThat(g.schema().checks()).isEqualTo(w.checks());
            assertThat(g.schema().foreignKeys()).isEqualTo(w.foreignKeys());
        }
    }

    private static TableEntry withoutIdentity(TableEntry t) {
        List<ColumnDef> columns = t.columns().stream()
                .map(c -> new ColumnDef(c.name(), c.type(), c.nullable(), c.defaultText(), null)).toList();
        return new TableEntry(t.id(), t.schemaName(), t.name(), columns, t.keys(), t.foreignKeys(), t.placement(), t.partitioning(),
                t.parts(), t.checks());
    }

    /** Per column: empty for none, else always, start, increment and the next number. */
    static List<List<Object>> identities(TableEntry t) {
        List<List<Object>> out = new ArrayList<>();
        for (ColumnDef c : t.columns()) {
            TableSchema.Identity i = c.identity();
            out.add(i == null ? List.of()
                    : List.of(i.always(), i.sequence().start(), i.sequence().increment(), i.sequence().peek()));
        }
        return out;
    }
}
