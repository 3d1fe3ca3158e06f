package io.numacol.cli;

import io.numacol.memory.Component;
import io.numacol.memory.NumaMemory;
import io.numacol.placement.PageSocketMap;
import io.numacol.placement.Placement;
import io.numacol.scan.BitVector;
import io.numacol.scan.ScanKernel;
import io.numacol.scan.ScanKernels;
import io.numacol.scan.VidPredicate;
import io.numacol.storage.Catalog;
import io.numacol.storage.Column;
import io.numacol.storage.ColumnType;
import io.numacol.storage.LongDictionary;
import io.numacol.storage.PartBuilder;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.TableSnapshot;
import io.numacol.storage.VidRange;
import io.numacol.topology.NumaNode;
import io.numacol.topology.Topology;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Random;

/**
 * The launcher's main job until SQL arrives: builds a lineitem-like table, shows which node
 * holds each column (as the kernel reports it, through the PageSocketMap), and runs a
 * two-predicate scan with both scan kernels.
 */
public final class Main {
    private static final String[] SHIP_MODES = {"AIR", "FOB", "MAIL", "RAIL", "REG AIR", "SHIP", "TRUCK"};
    /** Best of many, so the figure is the JIT-compiled kernel, not its warm-up. */
    private static final int REPEATS = 30;
    private static final LocalDate FIRST_SHIP = LocalDate.of(1992, 1, 2);

    private Main() {
    }

    public static void main(String[] args) {
        Options options;
        Topology topology;
        try {
            options = Options.parse(args);
            topology = Topology.fromSpec(options.topology);
            options.placement.checkAgainst(topology);
        } catch (IllegalArgumentException e) {
            System.err.println("numacol: " + e.getMessage());
            System.err.println(Options.USAGE);
            System.exit(2);
            return;
        }
        if (options.help) {
            System.out.println(Options.USAGE);
            return;
        }
        System.out.println("numacol: " + topology);
        for (NumaNode n : topology.nodes()) {
            System.out.printf("  node %d: cpus %s, %,d MiB (%,d MiB free)%n", n.id(), Arrays.toString(n.cpus()),
                    n.memoryBytes() >> 20, topology.freeMemory(n.id()) >> 20);
        }
        System.out.println("  scan kernel: " + ScanKernels.get());

        NumaMemory memory = NumaMemory.create(topology);
        Catalog catalog = new Catalog(memory);
        Table table = catalog.create("lineitem", TableSchema.of(
                new ColumnDef("l_orderkey", ColumnType.bigint(), false),
                new ColumnDef("l_quantity", ColumnType.integer(), false),
                new ColumnDef("l_extendedprice", ColumnType.decimal(12, 2), false),
                new ColumnDef("l_discount", ColumnType.decimal(4, 2), false),
                new ColumnDef("l_shipdate", ColumnType.date(), false),
                new ColumnDef("l_returnflag", ColumnType.charType(1), false),
                new ColumnDef("l_shipmode", ColumnType.varchar(10), false)));

        long start = System.nanoTime();
        PartBuilder part = table.newPart();
        Random random = new Random(42);
        for (int i = 0; i < options.rows; i++) {
            part.addRow((long) (i / 4), 1 + random.nextInt(50), BigDecimal.valueOf(90_000 + random.nextInt(10_000_000), 2),
                    BigDecimal.valueOf(random.nextInt(11), 2), FIRST_SHIP.plusDays(random.nextInt(2526)),
                    String.valueOf("ANR".charAt(random.nextInt(3))), SHIP_MODES[random.nextInt(SHIP_MODES.length)]);
        }
        TablePart built = part.commit(c -> options.placement.forColumn(c, topology), false);
        System.out.printf("%nloaded %,d rows into %s with placement %s in %,d ms%n", built.rowCount(), table.name(),
                options.placement, (System.nanoTime() - start) / 1_000_000);

        System.out.printf("%n%-16s %-14s %9s %7s %10s %10s  %s%n", "column", "type", "distinct", "bitcase",
                "IV KiB", "dict KiB", "index vector pages per node (kernel, via PageSocketMap)");
        for (Column c : built.columns()) {
            PageSocketMap psm = new PageSocketMap(memory);
            psm.add(c.indexVector().segment());
            long[] pages = Arrays.copyOf(psm.pagesPerNode(), topology.nodeCount());
            System.out.printf("%-16s %-14s %,9d %7d %,10d %,10d  %s%s%n", c.name(), c.type(), c.dictionary().size(),
                    c.bitcase(), c.byteSize(Component.INDEX_VECTOR) >> 10, c.byteSize(Component.DICTIONARY) >> 10,
                    Arrays.toString(pages), psm.ranges().stream().anyMatch(PageSocketMap.Range::isInterleaved)
                            ? " interleaved" : "");
        }

        try (TableSnapshot snapshot = table.snapshot()) {
            scan(snapshot.parts().getFirst());
        }

        System.out.println("\nmemory numacol holds, by node and component:");
        for (int node = 0; node < topology.nodeCount(); node++) {
            StringBuilder line = new StringBuilder(String.format("  node %d:", node));
            for (Component component : Component.values()) {
                line.append(String.format(" %s %,d KiB", component.name().toLowerCase(), memory.accounting().bytes(node, component) >> 10));
            }
            System.out.println(line);
        }
        catalog.drop(table.name());
        System.out.printf("dropped %s: %,d bytes left allocated%n", table.name(), memory.accounting().totalBytes());
    }

    /** WHERE l_quantity BETWEEN 10 AND 20 AND l_shipdate >= DATE '1995-01-01', as vid ranges. */
    private static void scan(TablePart part) {
        Column quantity = part.column(1);
        Column shipdate = part.column(4);
        VidRange q = ((LongDictionary) quantity.dictionary()).between(10, 20);
        VidRange d = ((LongDictionary) shipdate.dictionary()).between(LocalDate.of(1995, 1, 1).toEpochDay(), Long.MAX_VALUE);
        VidPredicate qp = VidPredicate.of(q);
        VidPredicate dp = VidPredicate.of(d);
        System.out.printf("%nSELECT COUNT(*) FROM lineitem WHERE l_quantity BETWEEN 10 AND 20 AND l_shipdate >= DATE '1995-01-01'%n");
        System.out.printf("  as vid predicates: l_quantity %s, l_shipdate %s%n", qp, dp);
        int rows = part.rowCount();
        long reference = -1;
        for (ScanKernel kernel : new ScanKernel[] {ScanKernels.scalar(), ScanKernels.vector()}) {
            long best = Long.MAX_VALUE;
            long count = 0;
            for (int repeat = 0; repeat < REPEATS; repeat++) {
                long t0 = System.nanoTime();
                BitVector a = new BitVector(rows);
                BitVector b = new BitVector(rows);
                kernel.scan(quantity.indexVector(), 0, rows, qp, a);
                kernel.scan(shipdate.indexVector(), 0, rows, dp, b);
                count = a.and(b).cardinality();
                best = Math.min(best, System.nanoTime() - t0);
            }
            if (reference >= 0 && reference != count) {
                throw new IllegalStateException("scan kernels disagree: " + reference + " vs " + count);
            }
            reference = count;
            System.out.printf("  %-40s %,d rows match; best of %d: %,.2f ms (%,.0f M values/s)%n", kernel, count,
                    REPEATS, best / 1e6, 2.0 * rows / (best / 1e9) / 1e6);
        }
    }

    private static final class Options {
        static final String USAGE = """
                usage: numacol [--rows N] [--topology real|fake:N] [--placement RR|IVP|INTERLEAVED|NODE(k)]
                  --rows       rows of the demo table (default 2000000)
                  --topology   real (default; one node without libnuma) or fake:N nodes over the real CPUs
                  --placement  how columns are placed on nodes (default RR)""";

        int rows = 2_000_000;
        String topology = "real";
        Placement placement = new Placement.RoundRobin(0);
        boolean help;

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                switch (arg) {
                    case "-h", "--help" -> o.help = true;
                    case "--rows" -> {
                        String v = value(args, ++i, arg);
                        try {
                            o.rows = Integer.parseInt(v.replace("_", ""));
                        } catch (NumberFormatException e) {
                            throw new IllegalArgumentException("--rows takes a whole number, not '" + v + "'");
                        }
                        if (o.rows < 0) {
                            throw new IllegalArgumentException("--rows must be >= 0, not " + o.rows);
                        }
                    }
                    case "--topology" -> o.topology = value(args, ++i, arg);
                    case "--placement" -> o.placement = Placement.parse(value(args, ++i, arg));
                    default -> throw new IllegalArgumentException("unknown option '" + arg + "'");
                }
            }
            return o;
        }

        private static String value(String[] args, int i, String option) {
            if (i >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            return args[i];
        }
    }
}
