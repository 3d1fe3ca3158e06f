package io.numacol.checkpoint;

import io.numacol.storage.CommentDef;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.TableSchema.KeyDef;
import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

/** A catalog image survives its bytes exactly, and bytes that are not one are refused, saying where they were. */
class CatalogImageTest {
    private static final List<ColumnDef> ONE = List.of(new ColumnDef("id", ColumnType.bigint(), false));

    private static CatalogImage withIdentity() {
        CatalogImage base = TestCatalogs.image("");
        List<TableEntry> tables = new ArrayList<>(base.tables());
        tables.add(TestCatalogs.identityTable(9, "counted"));
        return new CatalogImage(base.nextTableId(), base.schemas(), tables, base.views(), base.indexes(), base.sequences());
    }

    @Test
    void anEmptyImageIsTheCatalogOfANewDatabase() throws CheckpointException {
        CatalogImage empty = CatalogImage.empty();
        assertThat(empty.nextTableId()).isEqualTo(1);
        assertThat(empty.schemas()).isEmpty();
        assertThat(empty.tables()).isEmpty();
        assertThat(empty.views()).isEmpty();
        assertThat(empty.indexes()).isEmpty();
        assertThat(CatalogImage.decode(empty.encode())).isEqualTo(empty);
    }

    @Test
    void anImageWithoutIdentityReadsBackEqual() throws CheckpointException {
        CatalogImage written = TestCatalogs.image("p-");
        CatalogImage read = CatalogImage.decode(written.encode());
        assertThat(read).isEqualTo(written);
        assertThat(read.tables().getFirst().columns().get(1).defaultText()).isEqualTo("0.00");
        assertThat(read.tables().getFirst().columns().get(2).defaultText()).isNull();
        assertThat(read.tables().getFirst().columns().get(3).defaultText()).isEmpty();
        assertThat(read.tables().getFirst().keys().get(2).name()).isNull();
        assertThat(read.tables().getFirst().schema().checks()).isEqualTo(TestCatalogs.CHECKS);
        assertThat(read.tables().get(1).checks()).isEmpty();
        assertThat(read.views().get(1).columns()).isEmpty();
        assertThat(read.views().get(2).resolvedIn()).isEqualTo("sales");
        assertThat(read.indexes()).extracting(i -> i.unique()).containsExactly(false, true);
        assertThat(read.tables().get(2).partitioning().bounds()).containsExactly(-5L, 1L << 40);
        assertThat(read.tables().get(6).id()).isEqualTo(Long.MAX_VALUE - 1);
        assertThat(read.sequences()).extracting(SequenceEntry::next, SequenceEntry::exhausted)
                .containsExactly(tuple(33L, false), tuple(-43L, false), tuple(3L, true), tuple(Long.MAX_VALUE - 1, false));
        assertThat(read.sequences().get(1).def()).isEqualTo(written.sequences().get(1).def());
        assertThat(read.sequences().getFirst().def().maxValue()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aSequenceEntryOutsideItsBoundsIsRefused() {
        io.numacol.storage.SequenceDef small = new io.numacol.storage.SequenceDef("main", "s", "INTEGER", 1, 1, 1, 10, false);
        assertThatThrownBy(() -> new SequenceEntry(small, 11, false)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outside its bounds 1..10");
        assertThatThrownBy(() -> new io.numacol.storage.SequenceDef("main", "s", "SMALLINT", 1, 1, 1, 40_000, false))
                .hasMessageContaining("within the range of SMALLINT");
    }

    @Test
    void identityColumnsReadBackWithNewSequencesThatGoOnWhereTheWrittenOnesWere() throws CheckpointException {
        CatalogImage written = withIdentity();
        CatalogImage read = CatalogImage.decode(written.encode());
        TestCatalogs.assertSameCatalog(read, written);
        ColumnDef always = read.tables().getLast().columns().getFirst();
        ColumnDef byDefault = read.tables().getLast().columns().get(1);
        assertThat(always.identity().always()).isTrue();
        assertThat(byDefault.identity().always()).isFalse();
        assertThat(always.identity().sequence()).isNotSameAs(written.tables().getLast().columns().getFirst().identity().sequence());
        assertThat(always.identity().sequence().start()).isEqualTo(100);
        assertThat(always.identity().sequence().next()).isEqualTo(110);
        assertThat(byDefault.identity().sequence().increment()).isEqualTo(-3);
        assertThat(byDefault.identity().sequence().next()).isEqualTo(-53);
        assertThat(read.tables().getLast().schema().keys()).singleElement().extracting(k -> k.columns()).isEqualTo(List.of(0, 1));
    }

    @Test
    void everyFlippedBitIsFoundAndNamedAsTheLogs() {
        byte[] good = withIdentity().encode();
        Random random = new Random(5);
        for (int offset = 0; offset < good.length; offset++) {
            byte[] bad = good.clone();
            bad[offset] ^= (byte) (1 << random.nextInt(8));
            CheckpointException e = catchThrowableOfType(CheckpointException.class, () -> CatalogImage.decode(bad));
            assertThat(e).as("byte %d of %d flipped", offset, good.length).isNotNull();
            assertThat(e.getMessage()).startsWith("catalog image in the write-ahead log: ");
            assertThat(e.file()).isNull();
        }
    }

    @Test
    void aTruncatedOrLongerImageIsRefused() {
        byte[] good = TestCatalogs.image("").encode();
        for (int cut : new int[] {0, 5, 19, 20, good.length / 2, good.length - 1}) {
            assertThatThrownBy(() -> CatalogImage.decode(Arrays.copyOf(good, cut))).as("cut at %d", cut)
                    .isInstanceOf(DamagedFileException.class).hasMessageContaining("catalog image in the write-ahead log");
        }
        DamagedFileException longer = catchThrowableOfType(DamagedFileException.class,
                () -> CatalogImage.decode(Arrays.copyOf(good, good.length + 1)));
        assertThat(longer.section()).isEqualTo("header");
    }

    @Test
    void anotherVersionIsRefusedNamingBoth() {
        byte[] bytes = CatalogImage.empty().encode();
        int next = CatalogImage.VERSION + 1;
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(8, next);
        UnsupportedVersionException e = catchThrowableOfType(UnsupportedVersionException.class, () -> CatalogImage.decode(bytes));
        assertThat(e.found()).isEqualTo(next);
        assertThat(e.supported()).isEqualTo(CatalogImage.VERSION);
        assertThat(e.getMessage()).contains("catalog image in the write-ahead log").contains("version " + next)
                .contains("version " + CatalogImage.VERSION);
        assertThat(e.file()).isNull();
    }

    @Test
    void commentsRoundTrip() throws CheckpointException {
        List<ColumnDef> columns = List.of(new ColumnDef("id", ColumnType.bigint(), false), new ColumnDef("name", ColumnType.varchar(20), true));
        TableEntry table = new TableEntry(1, "main", "people", columns, List.of(), "RR", null, List.of());
        List<CommentDef> comments = List.of(new CommentDef("main", "people", null, "who is who"),
                new CommentDef("main", "people", "name", "it's theirs"));
        CatalogImage image = new CatalogImage(2, List.of("main"), List.of(table), List.of(), List.of(), List.of(), comments);
        assertThat(CatalogImage.decode(image.encode())).isEqualTo(image);
        assertThat(CatalogImage.decode(image.encode()).comments()).containsExactlyElementsOf(comments);
        // images of older versions (below) have none: their bodies end before the comment count
    }

    @Test
    void aVersionOneImageReadsWithoutForeignKeys() throws CheckpointException {
        // version 1's layout, which had no foreign keys after a table's keys
        FieldWriter body = new FieldWriter();
        body.putLong(2).putInt(1).putString("main").putInt(1);
        body.putLong(1).putString("main").putString("t").putInt(1).putString("a").putString("BIGINT").putBoolean(false)
                .putBoolean(false).putBoolean(false);
        body.putInt(1).putBoolean(true).putString("t_pkey").putInt(1).putInt(0).putBoolean(true);
        body.putString("RR").putBoolean(false).putInt(0);
        body.putInt(0).putInt(0).putInt(0);
        CatalogImage image = CatalogImage.decode(Frame.wrap("NUMACOLC".getBytes(StandardCharsets.US_ASCII), 1, body));
        assertThat(image.tables()).singleElement().satisfies(t -> {
            assertThat(t.keys()).containsExactly(new KeyDef("t_pkey", List.of(0), true));
            assertThat(t.foreignKeys()).isEmpty();
        });
    }

    @Test
    void aVersionTwoImageReadsItsForeignKeysAndNoChecks() throws CheckpointException {
        // version 2's layout: foreign keys after a table's keys, no checks
        FieldWriter body = new FieldWriter();
        body.putLong(3).putInt(1).putString("main").putInt(2);
        body.putLong(1).putString("main").putString("p").putInt(1).putString("id").putString("BIGINT").putBoolean(false)
                .putBoolean(false).putBoolean(false);
        body.putInt(1).putBoolean(true).putString("p_pkey").putInt(1).putInt(0).putBoolean(true);
        body.putInt(0).putString("RR").putBoolean(false).putInt(0);
        body.putLong(2).putString("main").putString("c").putInt(1).putString("p").putString("BIGINT").putBoolean(true)
                .putBoolean(false).putBoolean(false);
        body.putInt(0);
        body.putInt(1).putString("c_p_fkey").putInt(1).putInt(0).putString("main").putString("p").putInt(1).putString("id");
        body.putString("RR").putBoolean(false).putInt(0);
        body.putInt(0).putInt(0).putInt(0);
        CatalogImage image = CatalogImage.decode(Frame.wrap("NUMACOLC".getBytes(StandardCharsets.US_ASCII), 2, body));
        assertThat(image.tables().get(1).foreignKeys())
                .containsExactly(new TableSchema.ForeignKeyDef("c_p_fkey", List.of(0), "main", "p", List.of("id")));
        assertThat(image.tables()).allSatisfy(t -> assertThat(t.checks()).isEmpty());
    }

    @Test
    void aVersionThreeDefaultIsALiteralAndAnExpressionReadsBackAsOne() throws CheckpointException {
        // version 3's layout: a default's text with no flag after it, which is a literal value
        FieldWriter body = new FieldWriter();
        body.putLong(2).putInt(1).putString("main").putInt(1);
        body.putLong(1).putString("main").putString("t").putInt(1).putString("a").putString("VARCHAR(20)").putBoolean(true)
                .putBoolean(true).putString("now()").putBoolean(false);
        body.putInt(0).putInt(0).putInt(0).putString("RR").putBoolean(false).putInt(0);
        body.putInt(0).putInt(0).putInt(0);
        CatalogImage old = CatalogImage.decode(Frame.wrap("NUMACOLC".getBytes(StandardCharsets.US_ASCII), 3, body));
        ColumnDef literal = old.tables().getFirst().columns().getFirst();
        assertThat(literal.defaultText()).isEqualTo("now()");
        assertThat(literal.defaultExpression()).isFalse();
        assertThat(literal.literalDefault()).isEqualTo("now()");

        ColumnDef expression = new ColumnDef("at", ColumnType.timestamp(3), true, "CURRENT_TIMESTAMP", null, true);
        TableEntry t = new TableEntry(1, "main", "e", List.of(literal, expression), List.of(), "RR", null, List.of());
        CatalogImage written = new CatalogImage(2, List.of("main"), List.of(t), List.of(), List.of());
        CatalogImage read = CatalogImage.decode(written.encode());
        assertThat(read).isEqualTo(written);
        assertThat(read.tables().getFirst().columns()).extracting(ColumnDef::defaultExpression).containsExactly(false, true);
        assertThat(read.tables().getFirst().columns().get(1).literalDefault()).isNull();
    }

    @Test
    void aVersionThreeImageReadsItsForeignKeysAsNoAction() throws CheckpointException {
        CatalogImage image = CatalogImage.decode(Frame.wrap("NUMACOLC".getBytes(StandardCharsets.US_ASCII), 3, parentAndChild(null)));
        assertThat(image.tables().get(1).foreignKeys())
                .containsExactly(new TableSchema.ForeignKeyDef("c_p_fkey", List.of(0), "main", "p", List.of("id"),
                        TableSchema.ReferentialAction.NO_ACTION, TableSchema.ReferentialAction.NO_ACTION));
        assertThat(image.tables().get(1).checks()).containsExactly(new TableSchema.CheckDef("c_p_check", "p > 0"));
    }

    @Test
    void aVersionFourImageReadsItsForeignKeysActions() throws CheckpointException {
        CatalogImage image = CatalogImage.decode(Frame.wrap("NUMACOLC".getBytes(StandardCharsets.US_ASCII), 4,
                parentAndChild(new String[] {"CASCADE", "SET_DEFAULT"})));
        assertThat(image.tables().get(1).foreignKeys())
                .containsExactly(new TableSchema.ForeignKeyDef("c_p_fkey", List.of(0), "main", "p", List.of("id"),
                        TableSchema.ReferentialAction.CASCADE, TableSchema.ReferentialAction.SET_DEFAULT));
        byte[] again = image.encode();
        assertThat(CatalogImage.decode(again)).isEqualTo(image);
    }

    @Test
    void anUnknownActionIsDamage() {
        byte[] bytes = Frame.wrap("NUMACOLC".getBytes(StandardCharsets.US_ASCII), 4, parentAndChild(new String[] {"EXPLODE", "CASCADE"}));
        assertThatThrownBy(() -> CatalogImage.decode(bytes)).isInstanceOf(DamagedFileException.class).hasMessageContaining("EXPLODE");
    }

    /** Version 3's layout (checks after foreign keys), with the actions after a foreign key's parent columns when given (version 4). */
    private static FieldWriter parentAndChild(String[] actions) {
        FieldWriter body = new FieldWriter();
        body.putLong(3).putInt(1).putString("main").putInt(2);
        body.putLong(1).putString("main").putString("p").putInt(1).putString("id").putString("BIGINT").putBoolean(false)
                .putBoolean(false).putBoolean(false);
        body.putInt(1).putBoolean(true).putString("p_pkey").putInt(1).putInt(0).putBoolean(true);
        body.putInt(0).putInt(0).putString("RR").putBoolean(false).putInt(0);
        body.putLong(2).putString("main").putString("c").putInt(1).putString("p").putString("BIGINT").putBoolean(true)
                .putBoolean(false).putBoolean(false);
        body.putInt(0);
        body.putInt(1).putString("c_p_fkey").putInt(1).putInt(0).putString("main").putString("p").putInt(1).putString("id");
        if (actions != null) {
            body.putString(actions[0]).putString(actions[1]);
        }
        body.putInt(1).putString("c_p_check").putString("p > 0");
        body.putString("RR").putBoolean(false).putInt(0);
        body.putInt(0).putInt(0).putInt(0);
        return body;
    }

    @Test
    void aManifestIsNoCatalogImage() {
        byte[] manifest = new Manifest(3, TestCatalogs.image("")).encode();
        DamagedFileException e = catchThrowableOfType(DamagedFileException.class, () -> CatalogImage.decode(manifest));
        assertThat(e.section()).isEqualTo("header");
        assertThat(e.getMessage()).contains("catalog image");
    }

    @Test
    void bytesThatPassTheChecksumButDoNotParseAreDamageNotABufferError() throws CheckpointException {
        // a body a writer of another mind wrote: framed and checksummed, with a next table id of 0
        FieldWriter body = new FieldWriter();
        body.putLong(0).putInt(0).putInt(0).putInt(0).putInt(0).putInt(0).putInt(0);
        byte[] framed = Frame.wrap("NUMACOLC".getBytes(StandardCharsets.US_ASCII), CatalogImage.VERSION, body);
        DamagedFileException e = catchThrowableOfType(DamagedFileException.class, () -> CatalogImage.decode(framed));
        assertThat(e.section()).isEqualTo("body");
        assertThat(e.getMessage()).contains("next durable table id");
        FieldWriter fine = new FieldWriter();
        fine.putLong(1).putInt(0).putInt(0).putInt(0).putInt(0).putInt(0).putInt(0);
        assertThat(CatalogImage.decode(Frame.wrap("NUMACOLC".getBytes(StandardCharsets.US_ASCII),
                CatalogImage.VERSION, fine))).isEqualTo(CatalogImage.empty());
    }

    @Test
    void anImageRefusesATableTwiceByNameOrIdAndIdsTheNextTableWouldGet() {
        TableEntry a = new TableEntry(1, "main", "a", ONE, List.of(), "RR", null, List.of());
        TableEntry b = new TableEntry(2, "main", "b", ONE, List.of(), "RR", null, List.of());
        TableEntry aAgain = new TableEntry(3, "main", "a", ONE, List.of(), "RR", null, List.of());
        TableEntry bAsOne = new TableEntry(1, "main", "b", ONE, List.of(), "RR", null, List.of());
        assertThat(new CatalogImage(3, List.of("main"), List.of(a, b), List.of(), List.of()).tables()).hasSize(2);
        assertThatThrownBy(() -> new CatalogImage(4, List.of(), List.of(a, aAgain), List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("main.a");
        assertThatThrownBy(() -> new CatalogImage(4, List.of(), List.of(a, bAsOne), List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("id 1");
        assertThatThrownBy(() -> new CatalogImage(2, List.of(), List.of(a, b), List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("next id 2");
        assertThatThrownBy(() -> new CatalogImage(0, List.of(), List.of(), List.of(), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TableEntry(0, "main", "z", ONE, List.of(), "RR", null, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive");
        assertThat(new CatalogImage(1, List.of("main", "main"), List.of(), List.of(), List.of()).schemas())
                .as("schemas are the caller's, as given").containsExactly("main", "main");
    }

    @Test
    void aTableEntrysSchemaHasItsKeysAndRefusesBadOnes() {
        List<ColumnDef> columns = List.of(new ColumnDef("id", ColumnType.bigint(), false), new ColumnDef("x", ColumnType.integer(), true));
        TableEntry t = new TableEntry(1, "main", "t", columns, List.of(new KeyDef("t_x_key",
                List.of(1), false)), "RR", null, List.of());
        assertThat(t.schema().keys()).extracting(k -> k.name()).containsExactly("t_x_key");
        assertThatThrownBy(() -> new TableEntry(1, "main", "t", columns, List.of(new KeyDef("t_pkey",
                List.of(1), true)), "RR", null, List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NOT NULL");
        assertThatThrownBy(() -> new TableEntry(1, "main", "t", columns, List.of(new KeyDef("k",
                List.of(2), false)), "RR", null, List.of())).isInstanceOf(IllegalArgumentException.class);
        TableEntry checked = new TableEntry(1, "main", "t", columns, List.of(), "RR", null, List.of(),
                List.of(new TableSchema.CheckDef("x_positive", "x > 0")));
        assertThat(checked.schema().checks()).extracting(TableSchema.CheckDef::name).containsExactly("x_positive");
        assertThatThrownBy(() -> new TableEntry(1, "main", "t", columns, List.of(new KeyDef("T_X", List.of(1), false)), "RR", null,
                List.of(), List.of(new TableSchema.CheckDef("t_x", "x > 0")))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("\"t_x\" is defined twice");
    }

    @Test
    void aManifestsDamageStillNamesItsFile() {
        Path file = Path.of("some", "dir", Manifest.FILE_NAME);
        byte[] bad = new Manifest(1, CatalogImage.empty()).encode();
        bad[bad.length - 1] ^= 1;
        CheckpointException e = catchThrowableOfType(CheckpointException.class, () -> Manifest.decode(bad, file));
        assertThat(e.file()).isEqualTo(file);
        assertThat(e.getMessage()).startsWith(file + ": ");
    }
}
