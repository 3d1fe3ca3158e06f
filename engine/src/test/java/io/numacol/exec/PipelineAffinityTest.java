package io.numacol.exec;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.database.DatabaseConfig;
import io.numacol.scheduler.StealPolicy;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pipeline tasks run on the node of the data they read, on a fake topology of four nodes with
 * BOUND stealing (only a task's node may run it): a scan's and a join probe's output pages are
 * filled on the node of the part they came from; a sort above reads the pages of every node.
 */
class PipelineAffinityTest {
    private static Database db;
    private static Table facts;
    private static Table keys;

    @BeforeAll
    static void load() {
        db = Database.open(DatabaseConfig.defaults().withTopology("fake:4").withStealPolicy(StealPolicy.BOUND)
                .withRowsPerPart(5_000));
        facts = db.catalog().create("facts", TableSchema.of(new TableSchema.ColumnDef("k", ColumnType.bigint(), false),
                new TableSchema.ColumnDef("v", ColumnType.bigint(), false)));
        try (Appender a = db.appender("facts")) {
            for (long i = 0; i < 40_000; i++) {
                a.append(i % 1_000, i);
            }
        }
        keys = db.catalog().create("keys", TableSchema.of(new TableSchema.ColumnDef("k", ColumnType.bigint(), false)));
        try (Appender a = db.appender("keys")) {
            for (long i = 0; i < 1_000; i++) {
                a.append(i);
            }
        }
    }

    @AfterAll
    static void close() {
        db.close();
    }

    /** Rows per node of the parts of {@code table}. */
    private static Map<Integer, Long> partRows(Table table) {
        Map<Integer, Long> rows = new TreeMap<>();
        try (TableSnapshot snapshot = table.snapshot()) {
            for (TablePart part : snapshot.parts()) {
                int node = Morsels.affinity(table, part).node();
                rows.merge(node, (long) part.rowCount(), Long::sum);
            }
        }
        return rows;
    }

    /** Rows per node that filled their pages. */
    private static Map<Integer, Long> pageRows(RowStore store) {
        Map<Integer, Long> rows = new TreeMap<>();
        for (int p = 0; p < store.pages().size(); p++) {
            rows.merge(store.pageNode(p), (long) store.pages().get(p).size, Long::sum);
        }
        return rows;
    }

    @Test
    void scanAndProbeTasksRunOnTheirPartsNodes() {
        Map<Integer, Long> expected = partRows(facts);
        assertThat(expected.keySet()).as("the appender spreads parts over the nodes").hasSizeGreaterThan(1);
        PipelineExecutor executor = new PipelineExecutor(db.scheduler());
        PlanNode scan = new PlanNode.Scan(facts, null, new int[]{0, 1});
        assertThat(pageRows(executor.rows(scan, () -> false, MemoryReservation.NONE))).isEqualTo(expected);
        // every fact row matches one key: the probe's pairs are filled where the fact rows live
        PlanNode join = new PlanNode.HashJoin(scan, new PlanNode.Scan(keys, null, new int[]{0}), new int[]{0}, new int[]{0},
                new boolean[]{false}, PlanNode.JoinKind.INNER, false);
        assertThat(pageRows(executor.rows(join, () -> false, MemoryReservation.NONE))).isEqualTo(expected);
    }

    @Test
    void aSortOverAJoinSortsAllOfIt() {
        // the pages a join filled on each node feed the next pipeline; a sort above reads all of them
        PlanNode join = new PlanNode.HashJoin(new PlanNode.Scan(facts, null, new int[]{0, 1}), new PlanNode.Scan(keys, null,
                new int[]{0}), new int[]{0}, new int[]{0}, new boolean[]{false}, PlanNode.JoinKind.INNER, false);
        PlanNode sorted = new PlanNode.Sort(join, new Ordering(List.of(new Ordering.Key(1, true, false)), 0, 3));
        assertThat(new PipelineExecutor(db.scheduler()).execute(sorted, () -> false)).extracting(r -> r[1])
                .containsExactly(39_999L, 39_998L, 39_997L);
    }
}
