package io.numacol.checkpoint;

import io.numacol.storage.Catalog;
import io.numacol.storage.Column;
import io.numacol.storage.ColumnPlacement;
import io.numacol.storage.PartBuilder;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.types.ColumnType;
import io.numacol.storage.types.Describe;

import java.lang.foreign.MemorySegment;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** Table parts of every column type, built from seeded random rows, and what a part read back must equal. */
final class TestParts {
    /**
     * Every column type, some NOT NULL, with value spreads that give bitcases from 1 (constant,
     * all NULL, BOOLEAN) up to the row count's (BIGINT, DOUBLE, UUID: nearly every value distinct).
     */
    static final TableSchema ALL_TYPES = TableSchema.of(
            new ColumnDef("id", ColumnType.bigint(), false),
            new ColumnDef("flag", ColumnType.booleanType(), true),
            new ColumnDef("tiny", ColumnType.tinyint(), true),
            new ColumnDef("small", ColumnType.smallint(), true),
            new ColumnDef("constant", ColumnType.integer(), false),
            new ColumnDef("big", ColumnType.bigint(), true),
            new ColumnDef("ratio", ColumnType.real(), true),
            new ColumnDef("measure", ColumnType.doubleType(), true),
            new ColumnDef("price", ColumnType.decimal(15, 2), true),
            new ColumnDef("day", ColumnType.date(), true),
            new ColumnDef("at", ColumnType.timestamp(3), true),
            new ColumnDef("instant", ColumnType.timestampTz(3), true),
            new ColumnDef("clock", ColumnType.time(3), true),
            new ColumnDef("code", ColumnType.charType(3), true),
            new ColumnDef("note", ColumnType.varchar(40), true),
            new ColumnDef("nothing", ColumnType.varchar(10), true),
            new ColumnDef("blob", ColumnType.varbinary(16), true),
            new ColumnDef("key", ColumnType.uuid(), true));

    private static final String[] WORDS = {"", "a", "é", "naïve", "日本語", "\uD83D\uDE00 emoji", "zzz", "A", " lead", "trail "};

    private TestParts() {
    }

    static Table table(Catalog catalog, String name) {
        return catalog.create(name, ALL_TYPES);
    }

    /** A row of {@link #ALL_TYPES}; {@code row} makes the id unique. */
    static Object[] row(Random random, long row) {
        return new Object[] {
            row,
            nullOr(random, random.nextBoolean()),
            nullOr(random, random.nextInt(256) - 128),
            nullOr(random, random.nextInt(2000) - 1000),
            42,
            nullOr(random, random.nextLong()),
            nullOr(random, random.nextInt(50) / 4.0f),
            nullOr(random, switch (random.nextInt(20)) {
                case 0 -> Double.NaN;
                case 1 -> -0.0;
                case 2 -> Double.NEGATIVE_INFINITY;
                default -> random.nextGaussian();
            }),
            nullOr(random, BigDecimal.valueOf(random.nextInt(1_000_000) - 500_000, 2)),
            nullOr(random, LocalDate.of(1992, 1, 1).plusDays(random.nextInt(2500))),
            nullOr(random, LocalDateTime.of(2020, 1, 1, 0, 0).plusNanos(random.nextInt(1_000_000) * 1_000_000_000L
                    + random.nextInt(1000) * 1_000_000L)),
            nullOr(random, Instant.ofEpochMilli(1_600_000_000_000L + random.nextInt(1_000_000_000))),
            nullOr(random, LocalTime.ofNanoOfDay(random.nextInt(86_400_000) * 1_000_000L)),
            nullOr(random, String.valueOf((char) ('A' + random.nextInt(26))) + (random.nextBoolean() ? "x" : "")),
            nullOr(random, WORDS[random.nextInt(WORDS.length)] + (random.nextInt(3) == 0 ? "" : random.nextInt(500))),
            null,
            nullOr(random, bytes(random)),
            nullOr(random, new UUID(random.nextLong(), random.nextLong()))};
    }

    private static byte[] bytes(Random random) {
        byte[] b = new byte[random.nextInt(17)];
        random.nextBytes(b);
        return b;
    }

    private static Object nullOr(Random random, Object value) {
        return random.nextInt(8) == 0 ? null : value;
    }

    /** A part of {@code rows} random rows, each column on node {@code c % 2}, with an Index when asked. */
    static TablePart build(Table table, int rows, long seed, boolean withIndex) {
        Random random = new Random(seed);
        PartBuilder builder = table.newPart();
        for (int r = 0; r < rows; r++) {
            builder.addRow(row(random, r));
        }
        return builder.build(c -> ColumnPlacement.onNode(c % 2), withIndex);
    }

    /** A bitmap of about one row in {@code every} of {@code rows}, at least one when there are rows. */
    static long[] someRows(int rows, int every, long seed) {
        Random random = new Random(seed);
        long[] words = new long[(rows + 63) >>> 6];
        for (int r = 0; r < rows; r++) {
            if (r == rows / 2 || random.nextInt(every) == 0) {
                words[r >>> 6] |= 1L << r;
            }
        }
        return words;
    }

    /**
     * Asserts that {@code read} is {@code written} as stored: identity, rows, partition, deleted
     * rows, and per column its type, nulls, bitcase, every segment byte for byte and every value.
     */
    static void assertSamePart(TablePart read, TablePart written) {
        assertThat(read.id()).as("part id").isEqualTo(written.id());
        assertThat(read.rowCount()).as("rows").isEqualTo(written.rowCount());
        assertThat(read.partition()).as("partition").isEqualTo(written.partition());
        assertThat(read.partitioning()).as("partitioning").isEqualTo(written.partitioning());
        assertThat(read.deleted().count()).as("deleted rows").isEqualTo(written.deleted().count());
        for (int r = 0; r < written.rowCount(); r++) {
            assertThat(read.deleted().isDeleted(r)).as("row %d deleted", r).isEqualTo(written.deleted().isDeleted(r));
        }
        assertThat(read.columns()).hasSameSizeAs(written.columns());
        for (int c = 0; c < written.columns().size(); c++) {
            Column want = written.column(c);
            Column got = read.column(c);
            String what = "column " + want.name();
            assertThat(got.name()).as(what).isEqualTo(want.name());
            assertThat(got.type()).as(what).isEqualTo(want.type());
            assertThat(got.hasNulls()).as(what + " has nulls").isEqualTo(want.hasNulls());
            assertThat(got.nullVid()).as(what + " null vid").isEqualTo(want.nullVid());
            assertThat(got.bitcase()).as(what + " bitcase").isEqualTo(want.bitcase());
            assertThat(got.dictionary().size()).as(what + " distinct values").isEqualTo(want.dictionary().size());
            assertThat(got.index() == null).as(what + " without index").isEqualTo(want.index() == null);
            List<MemorySegment> wanted = want.allSegments();
            List<MemorySegment> gotten = got.allSegments();
            assertThat(gotten).as(what + " segments").hasSameSizeAs(wanted);
            for (int s = 0; s < wanted.size(); s++) {
                assertThat(gotten.get(s).byteSize()).as(what + " segment %d size", s).isEqualTo(wanted.get(s).byteSize());
                assertThat(MemorySegment.mismatch(gotten.get(s), 0, gotten.get(s).byteSize(), wanted.get(s), 0,
                        wanted.get(s).byteSize())).as(what + " segment %d first differing byte", s).isEqualTo(-1L);
            }
            // compared row by row without AssertJ per row: 100k rows of 18 columns would take seconds
            Object[] gotStored = got.storedValues(0, got.rowCount());
            Object[] wantStored = want.storedValues(0, want.rowCount());
            List<String> differences = new ArrayList<>();
            for (int r = 0; r < want.rowCount() && differences.size() < 10; r++) {
                Object gotValue = got.value(r);
                Object wantValue = want.value(r);
                if (!Objects.equals(gotStored[r], wantStored[r]) || !Objects.deepEquals(gotValue, wantValue)) {
                    differences.add("row " + r + ": " + Describe.value(gotValue) + " where " + Describe.value(wantValue) + " was written");
                }
            }
            assertThat(differences).as(what + " values").isEmpty();
        }
    }
}
