package io.numacol.exec;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.database.DatabaseConfig;
import io.numacol.scan.BitVector;
import io.numacol.scan.ScanKernel;
import io.numacol.scan.ScanKernels;
import io.numacol.scheduler.Affinity;
import io.numacol.storage.KeyLookup;
import io.numacol.storage.PartBuilder;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A scan's equality on a key column reads the rows the part's Index finds, and keeps exactly what
 * a scan of the whole part keeps: over parts with and without an Index, deleted rows, NULLs,
 * strings and numbers, a composite key with its first column bound, and other conditions ANDed.
 */
class IndexProbeTest {
    /** Rows per Appender: an Appender may top up the table's last small part, so parts come out about so. */
    private static final int[] PART_ROWS = {3_000, 2, 2_000, 1, 1_500, 3, 1};
    private static final int ID = 0;
    private static final int CODE = 1;
    private static final int GRP = 2;
    private static final int SEQ = 3;
    private static final int V = 4;
    private static Database db;
    private static TableSnapshot snapshot;
    private static int rows;

    @BeforeAll
    static void load() {
        db = Database.open(DatabaseConfig.defaults().withTopology("fake:2"));
        TableSchema schema = new TableSchema(List.of(
                new TableSchema.ColumnDef("id", ColumnType.bigint(), false),
                new TableSchema.ColumnDef("code", ColumnType.varchar(20), true),
                new TableSchema.ColumnDef("grp", ColumnType.integer(), false),
                new TableSchema.ColumnDef("seq", ColumnType.integer(), false),
                new TableSchema.ColumnDef("v", ColumnType.doubleType(), true)),
                List.of(new TableSchema.KeyDef("pk", List.of(ID), true),
                        new TableSchema.KeyDef("code_key", List.of(CODE), false),
                        new TableSchema.KeyDef("grp_seq", List.of(GRP, SEQ), false)));
        db.catalog().create("k", schema);
        int k = 0;
        for (int n : PART_ROWS) {
            try (Appender a = db.appender("k")) {
                for (int i = 0; i < n; i++, k++) {
                    a.append(row(k));
                }
            }
        }
        rows = k;
        Table table = db.catalog().get("k");
        SplittableRandom random = new SplittableRandom(41);
        List<TablePart> old = new ArrayList<>();
        List<TablePart> marked = new ArrayList<>();
        for (TablePart p : table.parts()) {
            long[] words = new long[(p.rowCount() + 63) >>> 6];
            for (int r = 0; r < p.rowCount(); r++) {
                if (random.nextInt(8) == 0) {
                    words[r >>> 6] |= 1L << r;
                }
            }
            TablePart version = p.withDeleted(words);
            if (version != p) { // a part none of whose rows drew a deletion keeps its version
                old.add(p);
                marked.add(version);
            }
        }
        table.replaceParts(old, marked);
        snapshot = table.snapshot();
    }

    /** Row {@code k}: unique ids (none a multiple of 3), codes unique or NULL, (grp, seq) unique with 20 rows a grp. */
    private static Object[] row(int k) {
        String code = k % 11 == 0 ? null : (k % 5 == 0 ? "é" : "c") + (k * 13L % 100_000);
        return new Object[] {k * 3L + 1, code, k / 20, k % 20, k % 7 == 0 ? null : (k % 50) * 0.5};
    }

    @AfterAll
    static void close() {
        snapshot.close();
        db.close();
    }

    @Test
    void largePartsIndexTheLeadingColumnOfEachKeyAndSmallPartsNothing() {
        assertThat(snapshot.parts()).anyMatch(p -> p.rowCount() < PartBuilder.INDEX_MIN_ROWS)
                .anyMatch(p -> p.rowCount() >= PartBuilder.INDEX_MIN_ROWS);
        for (TablePart p : snapshot.parts()) {
            boolean large = p.rowCount() >= PartBuilder.INDEX_MIN_ROWS;
            for (int c : new int[] {ID, CODE, GRP}) {
                assertThat(p.column(c).index() != null).as("column %d of %s", c, p).isEqualTo(large);
            }
            assertThat(p.column(SEQ).index()).isNull();
            assertThat(p.column(V).index()).isNull();
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void probesKeepWhatTheScanKeeps(boolean vectors) {
        ScanKernel kernel = vectors ? ScanKernels.get() : ScanKernels.scalar();
        SplittableRandom random = new SplittableRandom(vectors ? 5 : 6);
        int probed = 0;
        for (int q = 0; q < 300; q++) {
            ColumnFilter filter = randomFilter(random);
            for (TablePart part : snapshot.parts()) {
                PartFilter chosen = PartFilter.of(filter, part, Fork.SERIAL);
                BitVector expected = scan(kernel, filter, part);
                BitVector got = new BitVector(part.rowCount());
                if (!PartFilter.excludesAll(chosen)) {
                    for (Morsels.Morsel m : PartFilter.within(chosen, morsels(part))) {
                        chosen.eval(kernel, m.from(), m.to(), got);
                    }
                }
                assertThat(got).as("%s on %s (%s)", filter, part, chosen).isEqualTo(expected);
                probed += chosen instanceof PartFilter.Probe p && !p.isEmpty() ? 1 : 0;
            }
        }
        assertThat(probed).as("scans of a part that read its Index").isGreaterThan(300);
    }

    @Test
    void anEqualityOnAnIndexedKeyProbesAndAnAbsentValueRulesEveryPartOut() {
        TablePart first = snapshot.parts().stream().filter(p -> p.rowCount() >= PartBuilder.INDEX_MIN_ROWS).findFirst().orElseThrow();
        long id = (long) first.column(ID).value(17);
        assertThat(PartFilter.of(new ColumnFilter.In(ID, List.of(id)), first, Fork.SERIAL))
                .isInstanceOfSatisfying(PartFilter.Probe.class, p -> assertThat(p.positions()).containsExactly(17));
        for (TablePart part : snapshot.parts()) {
            assertThat(PartFilter.excludesAll(PartFilter.of(new ColumnFilter.In(ID, List.of(3L)), part, Fork.SERIAL))).isTrue();
        }
        // a value on a column without an Index (v) is scanned, and so is one most rows hold
        assertThat(PartFilter.of(new ColumnFilter.In(V, List.of(1.0)), first, Fork.SERIAL)).isNotInstanceOf(PartFilter.Probe.class);
    }

    @Test
    void rowIdsOfAKeyAreTheLiveRowsHoldingIt() {
        SplittableRandom random = new SplittableRandom(9);
        for (int q = 0; q < 500; q++) {
            int k = random.nextInt(rows + 10);
            Object[] r = row(k);
            boolean composite = random.nextBoolean();
            int[] columns = composite ? new int[] {GRP, SEQ} : new int[] {random.nextBoolean() ? ID : CODE};
            Object[] values = Arrays.stream(columns).mapToObj(c -> stored(r[c])).toArray();
            long[] expected = bruteForce(columns, values);
            assertThat(KeyLookup.rowIds(snapshot, columns, values)).as("row %d by %s", k, Arrays.toString(columns))
                    .containsExactly(expected);
        }
    }

    private static Object stored(Object value) {
        return value instanceof Integer i ? Long.valueOf(i) : value;
    }

    private static long[] bruteForce(int[] columns, Object[] values) {
        List<Long> out = new ArrayList<>();
        for (TablePart part : snapshot.parts()) {
            for (int r = 0; r < part.rowCount(); r++) {
                boolean match = !part.deleted().isDeleted(r);
                for (int k = 0; k < columns.length && match; k++) {
                    Object v = part.column(columns[k]).value(r);
                    match = v != null && stored(v).equals(values[k]);
                }
                if (match) {
                    out.add(part.rowId(r));
                }
            }
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    /** What the scan of the whole part keeps: the filter's vid predicates and the deleted rows, no probe. */
    private static BitVector scan(ScanKernel kernel, ColumnFilter filter, TablePart part) {
        PartFilter whole = new PartFilter.Live(filter.prepare(part), part.deleted());
        BitVector bits = new BitVector(part.rowCount());
        whole.eval(kernel, 0, part.rowCount(), bits);
        return bits;
    }

    /** Ranges of whole 1024-row blocks, as a scan's tasks take them. */
    private static List<Morsels.Morsel> morsels(TablePart part) {
        List<Morsels.Morsel> out = new ArrayList<>();
        for (int from = 0; from < part.rowCount(); from += 1024) {
            out.add(new Morsels.Morsel(from, Math.min(part.rowCount(), from + 1024), Affinity.none()));
        }
        return out;
    }

    private static ColumnFilter randomFilter(SplittableRandom random) {
        ColumnFilter key = switch (random.nextInt(3)) {
            case 0 -> new ColumnFilter.In(ID, values(random, ID));
            case 1 -> new ColumnFilter.In(CODE, values(random, CODE));
            default -> new ColumnFilter.In(GRP, values(random, GRP));
        };
        return switch (random.nextInt(5)) {
            case 0, 1 -> key;
            case 2 -> new ColumnFilter.And(List.of(new ColumnFilter.Range(V, null, true, random.nextInt(30) * 1.0, true), key));
            case 3 -> new ColumnFilter.And(List.of(key, new ColumnFilter.IsNull(CODE, random.nextBoolean())));
            default -> new ColumnFilter.And(List.of(new ColumnFilter.In(SEQ, List.of((long) random.nextInt(20))), key));
        };
    }

    /** One to three values of a column, some of rows that exist (deleted or not), some of none. */
    private static List<Object> values(SplittableRandom random, int column) {
        List<Object> out = new ArrayList<>();
        for (int n = 1 + random.nextInt(3); n > 0; n--) {
            int k = random.nextInt(rows + rows / 10);
            Object v = stored(row(k)[column]);
            out.add(v == null ? "absent" : v);
        }
        return out;
    }
}
