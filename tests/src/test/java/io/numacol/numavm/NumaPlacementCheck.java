package io.numacol.numavm;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.jdbc.NumacolDriver;
import io.numacol.memory.NumaMemory;
import io.numacol.placement.PageSocketMap;
import io.numacol.storage.Catalog;
import io.numacol.storage.Column;
import io.numacol.storage.ColumnPlacement;
import io.numacol.storage.PartBuilder;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.TableSchema;
import io.numacol.storage.types.ColumnType;
import io.numacol.topology.NumaNode;
import io.numacol.topology.Topology;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Random;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

/**
 * Run inside a multi-node guest (see {@link NumaVm}): the real topology must match sysfs, and the
 * components of columns placed on each node, interleaved, split by IVP and moved must sit where
 * numacol asked, with numacol's PageSocketMap agreeing with the kernel (move_pages and
 * /proc/self/numa_maps) for at least 99% of pages. Exit code 0 when every check passes.
 */
public final class NumaPlacementCheck {
    private static final double REQUIRED = 0.99;
    private static final int ROWS = 1 << 17;
    private static final int DISTINCT = 60_000;
    private static final List<String> FAILURES = new ArrayList<>();

    public static void main(String[] args) throws IOException {
        int expectedNodes = Integer.parseInt(args[0]);
        Topology topology = Topology.detect();
        System.out.println("topology: " + topology);
        topology.nodes().forEach(n -> System.out.println("  " + n));
        check(topology.kind() == Topology.Kind.REAL, "topology is real, not " + topology.kind());
        check(topology.nodeCount() == expectedNodes, "expected " + expectedNodes + " nodes, got " + topology.nodeCount());
        for (NumaNode n : topology.nodes()) {
            Path sys = Path.of("/sys/devices/system/node/node" + n.osNode());
            int[] cpus = parseCpuList(Files.readString(sys.resolve("cpulist")).trim());
            check(Arrays.equals(cpus, n.cpus()), "node " + n.id() + " cpus " + Arrays.toString(n.cpus())
                    + " vs sysfs " + Arrays.toString(cpus));
            int[] distances = Arrays.stream(Files.readString(sys.resolve("distance")).trim().split("\\s+"))
                    .mapToInt(Integer::parseInt).toArray();
            check(Arrays.equals(distances, n.distances()), "node " + n.id() + " distances "
                    + Arrays.toString(n.distances()) + " vs sysfs " + Arrays.toString(distances));
        }

        NumaMemory memory = NumaMemory.create(topology);
        int nodes = topology.nodeCount();
        Catalog catalog = new Catalog(memory);
        List<ColumnDef> defs = new ArrayList<>();
        List<ColumnPlacement> placements = new ArrayList<>();
        int[] all = IntStream.range(0, nodes).toArray();
        for (int node = 0; node < nodes; node++) {
            defs.add(new ColumnDef("on_node_" + node, ColumnType.bigint(), false));
            placements.add(ColumnPlacement.onNode(node));
        }
        defs.add(new ColumnDef("interleaved", ColumnType.bigint(), false));
        placements.add(ColumnPlacement.interleaved(all));
        defs.add(new ColumnDef("ivp", ColumnType.bigint(), false));
        placements.add(ColumnPlacement.indexVectorPartitioned(all));
        defs.add(new ColumnDef("moved_to_" + (nodes - 1), ColumnType.bigint(), false));
        placements.add(ColumnPlacement.onNode(0));
        Table table = catalog.create("placement_check", new TableSchema(defs));
        PartBuilder part = table.newPart();
        Random random = new Random(42);
        Object[] row = new Object[defs.size()];
        for (int r = 0; r < ROWS; r++) {
            for (int c = 0; c < row.length; c++) {
                row[c] = (long) random.nextInt(DISTINCT);
            }
            part.addRow(row);
        }
        TablePart built = part.commit(placements::get, false);
        PageSocketMap psm = new PageSocketMap(memory);
        built.columns().forEach(c -> c.allSegments().forEach(psm::add));
        MemorySegment movedIv = built.columns().getLast().indexVector().segment();
        psm.move(movedIv.address(), movedIv.byteSize(), nodes - 1);

        Map<Long, long[]> numaMaps = numaMaps(nodes);
        for (Column column : built.columns()) {
            verify(column.name() + " index vector", column.indexVector().segment(), psm, memory, numaMaps);
            verify(column.name() + " dictionary", column.dictionary().segments().getFirst(), psm, memory, numaMaps);
        }
        check(psm.ranges().stream().anyMatch(r -> r.isInterleaved() && Long.bitCount(r.interleaveMask()) == nodes),
                "PSM detected no range interleaved over all " + nodes + " nodes");
        catalog.drop(table.name());
        check(memory.accounting().totalBytes() == 0, "accounting back to 0 after the table is dropped");
        placedBySql(nodes);
        placedWhenReadBack(nodes);
        System.out.println(FAILURES.isEmpty() ? "RESULT: OK" : "RESULT: FAILED " + FAILURES);
        System.exit(FAILURES.isEmpty() ? 0 : 1);
    }

    /**
     * ALTER TABLE .. SET PLACEMENT through JDBC: the kernel holds every page of the table where
     * the statement said, and {@code sys.placements} reports per node what the kernel says.
     */
    private static void placedBySql(int nodes) {
        int last = nodes - 1;
        // the DataPlacer runs (a real topology of several nodes) and decides five times a second;
        // BOUND: no other node's worker takes node 0's scans, so node 0's worker is saturated
        String url = "jdbc:numacol:;rowsPerPart=40000;placerPeriod=200;stealPolicy=BOUND";
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            Database db = NumacolDriver.database(c);
            check(db.placerRunning(), "the DataPlacer runs on a real topology of " + nodes + " nodes");
            db.pausePlacer(true);
            s.execute("CREATE TABLE placed (a BIGINT NOT NULL, b VARCHAR(12))");
            try (Appender appender = db.appender("placed")) {
                for (long i = 0; i < 100_000; i++) {
                    appender.append(i * 7, "s" + i % 5000);
                }
            }
            for (String spec : List.of("NODE(" + last + ")", "IVP", "PP(" + 2 * nodes + ") BY HASH (a)")) {
                s.execute("ALTER TABLE placed SET PLACEMENT " + spec);
                kernelMatchesSys(db, s, nodes, "SET PLACEMENT " + spec, spec, "placed");
            }
            s.execute("ALTER TABLE placed SET PLACEMENT NODE(0)");
            db.pausePlacer(false);
            long actions = placerActsUnderLoad(c, s);
            check(actions > 0, "the DataPlacer took no action in 60 s of scans of a table on node 0");
            if (actions > 0) {
                kernelMatchesSys(db, s, nodes, "after " + actions + " placer action(s)", null, "placed");
            }
        } catch (SQLException | InterruptedException e) {
            check(false, "SQL: " + e);
        }
    }

    /**
     * A file database's tables, placed NODE(last), IVP and PP, read back after a crash (the log:
     * part files its transactions wrote) and after a clean close (the checkpoint's part files): the
     * kernel holds every page where each table's placement says, a PP part's on its partition's node.
     */
    private static void placedWhenReadBack(int nodes) throws IOException {
        int last = nodes - 1;
        Path dir = Files.createTempDirectory("numacol-placed");
        // no DataPlacer: what is checked is where opening puts the pages, not where the placer moves them
        String url = "jdbc:numacol:file:" + dir.resolve("db") + ";rowsPerPart=40000;placer=off";
        Map<String, String> specs = new java.util.LinkedHashMap<>();
        specs.put("on_last", "NODE(" + last + ")");
        specs.put("ivp", "IVP");
        specs.put("pp", "PP(" + 2 * nodes + ") BY HASH (a)");
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            Database db = NumacolDriver.database(c);
            for (Map.Entry<String, String> e : specs.entrySet()) {
                s.execute("CREATE TABLE " + e.getKey() + " (a BIGINT NOT NULL, b VARCHAR(12))");
                s.execute("ALTER TABLE " + e.getKey() + " SET PLACEMENT " + e.getValue());
                try (Appender appender = db.appender(e.getKey())) {
                    for (long i = 0; i < 100_000; i++) {
                        appender.append(i * 7, "s" + i % 5000);
                    }
                }
            }
            db.durableStore().orElseThrow().abandon(); // a crash: no last checkpoint
        } catch (SQLException e) {
            check(false, "SQL: " + e);
        }
        for (String how : List.of("replayed from the log", "read from the checkpoint")) {
            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                Database db = NumacolDriver.database(c);
                for (Map.Entry<String, String> e : specs.entrySet()) {
                    kernelMatchesSys(db, s, nodes, e.getKey() + " " + how, e.getValue(), e.getKey());
                    try (ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(a) FROM " + e.getKey())) {
                        rs.next();
                        check(rs.getLong(1) == 100_000 && rs.getLong(2) == 7L * 99_999 * 100_000 / 2,
                                e.getKey() + " " + how + ": " + rs.getLong(1) + " rows summing to " + rs.getLong(2));
                    }
                }
            } catch (SQLException e) {
                check(false, "SQL " + how + ": " + e);
            } // closed: a checkpoint, read by the next round
        }
    }

    /** Scans the table on two threads until the DataPlacer acts (60 s at most); its actions then. */
    private static long placerActsUnderLoad(Connection c, Statement s) throws SQLException, InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> clients = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            clients.add(Thread.ofPlatform().start(() -> {
                // an expression per row: the worker's share of each query far above the client's
                try (PreparedStatement q = c.prepareStatement("SELECT COUNT(*) FROM placed WHERE MOD(a, 13) = 4 OR b LIKE '%77%'")) {
                    while (!stop.get()) {
                        try (ResultSet rs = q.executeQuery()) {
                            rs.next();
                        }
                    }
                } catch (SQLException e) {
                    check(false, "a scan failed while the placer acted: " + e);
                }
            }));
        }
        long actions = 0;
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (actions == 0 && System.nanoTime() < deadline) {
                Thread.sleep(100);
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM sys.placer_actions")) {
                    rs.next();
                    actions = rs.getLong(1);
                }
            }
        } finally {
            stop.set(true);
            for (Thread t : clients) {
                t.join();
            }
        }
        try (ResultSet rs = s.executeQuery("SELECT action, from_node, to_node, why FROM sys.placer_actions")) {
            while (rs.next()) {
                System.out.printf("  placer: %s %s -> %d (%s)%n", rs.getString(1), rs.getObject(2), rs.getInt(3), rs.getString(4));
            }
        }
        return actions;
    }

    /**
     * The pages of every part of {@code table}: where the kernel has them against numacol's
     * record and against sys.placements; {@code spec} (when not null) the spec sys must report.
     */
    private static void kernelMatchesSys(Database db, Statement s, int nodes, String label, String spec, String table)
            throws SQLException {
        int last = nodes - 1;
        long[] kernel = new long[nodes];
        Table placed = db.catalog().get(table);
        int misplaced = 0;
        int pagesSeen = 0;
        for (TablePart part : placed.parts()) {
            for (Column column : part.columns()) {
                for (MemorySegment segment : column.allSegments()) {
                    int pages = (int) ((segment.byteSize() + db.memory().pageSize() - 1) / db.memory().pageSize());
                    int[] where = new int[pages];
                    int[] asked = new int[pages];
                    db.memory().kernelPages().locate(segment.address(), pages, where);
                    db.memory().bookkeptPages().locate(segment.address(), pages, asked);
                    for (int i = 0; i < pages; i++) {
                        if (where[i] >= 0) {
                            kernel[where[i]]++;
                        }
                        misplaced += where[i] == asked[i] ? 0 : 1;
                        misplaced += spec != null && spec.startsWith("NODE") && where[i] != last ? 1 : 0;
                        // PP: a part of partition p whole on node p mod nodes
                        misplaced += spec != null && spec.startsWith("PP") && where[i] != part.partition() % nodes ? 1 : 0;
                    }
                    pagesSeen += pages;
                }
            }
        }
        long[] reported = new long[nodes];
        try (ResultSet rs = s.executeQuery("SELECT node, SUM(pages), MIN(source), MIN(spec) FROM sys.placements"
                + " WHERE table_name = '" + table + "' GROUP BY node")) {
            while (rs.next()) {
                reported[rs.getInt(1)] = rs.getLong(2);
                check(rs.getString(3).startsWith("kernel"), "sys.placements source " + rs.getString(3));
                check(spec == null || rs.getString(4).equals(spec), "sys.placements spec " + rs.getString(4) + ", not " + spec);
            }
        }
        System.out.printf("  %-28s %5d pages, kernel per node %s, sys.placements %s, %d not where asked%n",
                label, pagesSeen, Arrays.toString(kernel), Arrays.toString(reported), misplaced);
        check(misplaced <= (1 - REQUIRED) * pagesSeen, label + ": " + misplaced + " of " + pagesSeen + " pages not where asked");
        check(Arrays.equals(kernel, reported), label + ": sys.placements " + Arrays.toString(reported)
                + " vs the kernel " + Arrays.toString(kernel));
        check(!"IVP".equals(spec) || Arrays.stream(kernel).allMatch(n -> n > 0), "IVP left a node without pages");
        check(spec == null || !spec.startsWith("PP") || (placed.parts().stream().allMatch(p -> p.partition() >= 0)
                && Arrays.stream(kernel).allMatch(n -> n > 0)), "PP left a part without a partition, or a node without pages");
    }

    /** Kernel vs numacol's intent (its page record) vs the PSM, page by page; numa_maps per VMA. */
    private static void verify(String label, MemorySegment s, PageSocketMap psm, NumaMemory memory,
                               Map<Long, long[]> numaMaps) {
        long pageSize = memory.pageSize();
        int pages = (int) ((s.byteSize() + pageSize - 1) / pageSize);
        int[] kernel = new int[pages];
        int[] intent = new int[pages];
        memory.kernelPages().locate(s.address(), pages, kernel);
        memory.bookkeptPages().locate(s.address(), pages, intent);
        long[] perNode = new long[memory.topology().nodeCount()];
        int onTarget = 0;
        int agree = 0;
        for (int i = 0; i < pages; i++) {
            onTarget += kernel[i] == intent[i] ? 1 : 0;
            agree += psm.lookup(s.address() + i * pageSize) == kernel[i] ? 1 : 0;
            if (kernel[i] >= 0) {
                perNode[kernel[i]]++;
            }
        }
        PageSocketMap mine = psm.subset(s.address(), s.byteSize());
        long[] maps = numaMaps.get(s.address());
        long mapsAgree = maps == null ? -1
                : IntStream.range(0, perNode.length).mapToLong(n -> Math.min(maps[n], mine.pages(n))).sum();
        System.out.printf("  %-28s %5d pages, per node %s; where numacol asked %6.2f%%; PSM = move_pages %6.2f%%;"
                        + " PSM = numa_maps %s; PSM ranges %d%s%n",
                label, pages, Arrays.toString(perNode), 100.0 * onTarget / pages, 100.0 * agree / pages,
                mapsAgree < 0 ? "(VMA shared)" : String.format("%6.2f%%", 100.0 * mapsAgree / pages),
                mine.ranges().size(), mine.ranges().stream().anyMatch(PageSocketMap.Range::isInterleaved) ? " interleaved" : "");
        check(onTarget >= REQUIRED * pages, label + ": only " + onTarget + "/" + pages + " pages where numacol asked");
        check(agree >= REQUIRED * pages, label + ": PSM agrees with move_pages for only " + agree + "/" + pages);
        check(mapsAgree < 0 || mapsAgree >= REQUIRED * pages, label + ": PSM agrees with numa_maps for only " + mapsAgree);
    }

    /** Pages per kernel node of each VMA in /proc/self/numa_maps, by start address. */
    private static Map<Long, long[]> numaMaps(int nodes) throws IOException {
        Map<Long, long[]> out = new HashMap<>();
        for (String line : Files.readAllLines(Path.of("/proc/self/numa_maps"))) {
            String[] words = line.split(" ");
            long[] counts = new long[nodes];
            for (String w : words) {
                if (w.matches("N\\d+=\\d+")) {
                    int node = Integer.parseInt(w.substring(1, w.indexOf('=')));
                    if (node < nodes) {
                        counts[node] = Long.parseLong(w.substring(w.indexOf('=') + 1));
                    }
                }
            }
            out.put(Long.parseUnsignedLong(words[0], 16), counts);
        }
        return out;
    }

    private static int[] parseCpuList(String list) {
        if (list.isEmpty()) {
            return new int[0];
        }
        return Arrays.stream(list.split(",")).flatMapToInt(part -> {
            String[] bounds = part.split("-");
            int lo = Integer.parseInt(bounds[0]);
            int hi = bounds.length > 1 ? Integer.parseInt(bounds[1]) : lo;
            return IntStream.rangeClosed(lo, hi);
        }).toArray();
    }

    private static synchronized void check(boolean ok, String what) {
        if (!ok) {
            FAILURES.add(what);
            System.out.println("  FAIL " + what);
        }
    }
}
