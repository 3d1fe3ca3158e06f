package io.numacol.tpch;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.storage.CatalogView;
import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.TableSchema;
import io.numacol.storage.types.ColumnType;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchColumnType;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TextPool;
import io.trino.tpch.TpchTable;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Creates the eight TPC-H tables and fills them with dbgen's data at a scale factor. Column types
 * are the specification's (clause 1.4), which the generator library does not carry (it types
 * every text VARCHAR and every money value DOUBLE): identifiers INTEGER (BIGINT for order keys,
 * which pass 2^31 at SF 1000), money and quantities DECIMAL(15,2), fixed text CHAR(n), free text
 * VARCHAR(n), every column NOT NULL.
 *
 * <p>{@link #generate} hands rows to any sink, so another engine can be loaded with the same
 * values in the same pass (the differential tests do).
 */
public final class TpchLoader {

    /** The largest scale factor whose part keys (200,000 per unit) still fit the INTEGER columns. */
    public static final double MAX_SCALE_FACTOR = 10_000;

    /** One TPC-H table: its numacol schema and where each column's values come from. */
    public record TpchTableDef(String name, TableSchema schema, TpchTable<?> source) {

        /** {@code CREATE TABLE name (col TYPE NOT NULL, ...)}, in SQL both numacol and other engines accept. */
        public String createTableSql() {
            return schema.columns().stream().map(ColumnDef::toString)
                    .collect(Collectors.joining(", ", "CREATE TABLE " + name + " (", ")"));
        }
    }

    /** Where {@link #generate} sends a table's rows; each row is a fresh array in schema order. */
    public interface Sink {
        /** Called once per table, before its rows; the returned consumer is closed after its last row. */
        TableSink open(TpchTableDef table);
    }

    /** The rows of one table. */
    public interface TableSink extends AutoCloseable {
        void accept(Object[] row);

        @Override
        void close();

        /** The rows into {@code rows}, published when the sink closes. */
        static TableSink appendingTo(Appender rows) {
            return new TableSink() {
                @Override
                public void accept(Object[] row) {
                    rows.append(row);
                }

                @Override
                public void close() {
                    rows.close();
                }
            };
        }
    }

    /** Rows per table and the wall time {@link #load} took. */
    public record LoadResult(Map<String, Long> rows, long nanos) {
        public long totalRows() {
            return rows.values().stream().mapToLong(Long::longValue).sum();
        }

        public double rowsPerSecond() {
            return totalRows() / (nanos / 1e9);
        }
    }

    private static final List<TpchTableDef> TABLES = List.of(
            table("region", TpchTable.REGION,
                    "r_regionkey INTEGER", "r_name CHAR(25)", "r_comment VARCHAR(152)"),
            table("nation", TpchTable.NATION,
                    "n_nationkey INTEGER", "n_name CHAR(25)", "n_regionkey INTEGER", "n_comment VARCHAR(152)"),
            table("part", TpchTable.PART,
                    "p_partkey INTEGER", "p_name VARCHAR(55)", "p_mfgr CHAR(25)", "p_brand CHAR(10)",
                    "p_type VARCHAR(25)", "p_size INTEGER", "p_container CHAR(10)", "p_retailprice DECIMAL(15,2)",
                    "p_comment VARCHAR(23)"),
            table("supplier", TpchTable.SUPPLIER,
                    "s_suppkey INTEGER", "s_name CHAR(25)", "s_address VARCHAR(40)", "s_nationkey INTEGER",
                    "s_phone CHAR(15)", "s_acctbal DECIMAL(15,2)", "s_comment VARCHAR(101)"),
            table("partsupp", TpchTable.PART_SUPPLIER,
                    "ps_partkey INTEGER", "ps_suppkey INTEGER", "ps_availqty INTEGER", "ps_supplycost DECIMAL(15,2)",
                    "ps_comment VARCHAR(199)"),
            table("customer", TpchTable.CUSTOMER,
                    "c_custkey INTEGER", "c_name VARCHAR(25)", "c_address VARCHAR(40)", "c_nationkey INTEGER",
                    "c_phone CHAR(15)", "c_acctbal DECIMAL(15,2)", "c_mktsegment CHAR(10)", "c_comment VARCHAR(117)"),
            table("orders", TpchTable.ORDERS,
                    "o_orderkey BIGINT", "o_custkey INTEGER", "o_orderstatus CHAR(1)", "o_totalprice DECIMAL(15,2)",
                    "o_orderdate DATE", "o_orderpriority CHAR(15)", "o_clerk CHAR(15)", "o_shippriority INTEGER",
                    "o_comment VARCHAR(79)"),
            table("lineitem", TpchTable.LINE_ITEM,
                    "l_orderkey BIGINT", "l_partkey INTEGER", "l_suppkey INTEGER", "l_linenumber INTEGER",
                    "l_quantity DECIMAL(15,2)", "l_extendedprice DECIMAL(15,2)", "l_discount DECIMAL(15,2)",
                    "l_tax DECIMAL(15,2)", "l_returnflag CHAR(1)", "l_linestatus CHAR(1)", "l_shipdate DATE",
                    "l_commitdate DATE", "l_receiptdate DATE", "l_shipinstruct CHAR(25)", "l_shipmode CHAR(10)",
                    "l_comment VARCHAR(44)"));

    private TpchLoader() {
    }

    /** The eight tables, dimension tables first. */
    public static List<TpchTableDef> tables() {
        return TABLES;
    }

    /**
     * Creates the eight tables in {@code db} and loads them at {@code scaleFactor}, each table
     * generated on a thread of its own (as many as the machine has cores). None of them may exist
     * yet: the error names those that do, and nothing is created. If the load fails part way
     * (memory, say), the tables it created are dropped again: it leaves all eight or none.
     */
    public static LoadResult load(Database db, double scaleFactor) {
        checkScaleFactor(scaleFactor);
        List<String> existing = TABLES.stream().map(TpchTableDef::name).filter(n -> db.catalog().find(n).isPresent()).toList();
        if (!existing.isEmpty()) {
            throw new IllegalArgumentException("cannot generate TPC-H: " + (existing.size() == 1 ? "table " : "tables ")
                    + String.join(", ", existing) + (existing.size() == 1 ? " already exists" : " already exist")
                    + "; drop " + (existing.size() == 1 ? "it" : "them") + " first");
        }
        long start = System.nanoTime();
        startTextPool();
        Map<String, Appender> appenders = new LinkedHashMap<>();
        List<String> created = new ArrayList<>();
        try {
            for (TpchTableDef table : TABLES) {
                db.catalog().create(table.name(), table.schema());
                created.add(table.name());
                appenders.put(table.name(), db.appender(table.name()));
            }
            // each table generated on a thread of its own, the largest first: lineitem alone takes as long
            // as the other seven together, so two cores load in about the time of lineitem
            List<TpchTableDef> bySize = TABLES.reversed();
            int threads = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), bySize.size()));
            List<Future<?>> done = new ArrayList<>();
            ExecutorService loaders = Executors.newFixedThreadPool(threads, Thread.ofPlatform().name("numacol-tpch-load-", 0).daemon().factory());
            try {
                // in the caller's view: its transaction (a CALL dbgen in one) takes the rows, as if it appended them
                CatalogView view = CatalogView.current(db.catalog());
                for (TpchTableDef table : bySize) {
                    Appender appender = appenders.get(table.name());
                    done.add(loaders.submit(() -> CatalogView.runIn(view, () -> {
                        generate(table, scaleFactor, TableSink.appendingTo(appender));
                        appender.close();
                        return null;
                    })));
                }
                // every table's load waited for, the first failure kept: none still appends when the tables are dropped
                RuntimeException failed = null;
                for (Future<?> f : done) {
                    try {
                        awaitLoad(f);
                    } catch (RuntimeException e) {
                        if (failed == null) {
                            failed = e;
                        } else {
                            failed.addSuppressed(e);
                        }
                    }
                }
                if (failed != null) {
                    throw failed;
                }
            } finally {
                // waits for every table's generation to end (an interrupted wait above leaves some running):
                // no loader may still append when the failure path discards the appenders and drops the tables
                loaders.close();
            }
        } catch (RuntimeException | Error e) {
            appenders.values().forEach(Appender::discard);
            for (String name : created.reversed()) {
                try {
                    db.dropTable(name);
                } catch (RuntimeException dropFailed) {
                    e.addSuppressed(dropFailed);
                }
            }
            throw e;
        }
        Map<String, Long> rows = new LinkedHashMap<>();
        appenders.forEach((name, appender) -> rows.put(name, appender.appendedRows()));
        return new LoadResult(rows, System.nanoTime() - start);
    }

    /** Waits for one table's load; rethrows what it threw. */
    private static void awaitLoad(Future<?> load) {
        try {
            load.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while loading TPC-H");
        }
    }

    /**
     * Starts making the generator's text pool (the 300 MB of text every comment column is cut
     * from, as dbgen's) on a thread of its own, unless it is made or being made: it takes 0.8 s of
     * one core, and a caller that will load TPC-H (the main job) has it made while it opens its
     * database. Loading waits for it either way.
     */
    public static void startTextPool() {
        if (TEXT_POOL_STARTED.compareAndSet(false, true)) {
            Thread.ofPlatform().name("numacol-tpch-text-pool").daemon().start(() -> java.util.Objects.requireNonNull(TextPool.getDefaultTextPool().get(), "the text pool"));
        }
    }

    private static final AtomicBoolean TEXT_POOL_STARTED = new AtomicBoolean();

    /** Generates every table at {@code scaleFactor} (&gt; 0) into {@code sink}, one table after another. */
    public static void generate(double scaleFactor, Sink sink) {
        checkScaleFactor(scaleFactor);
        for (TpchTableDef table : TABLES) {
            try (TableSink rows = sink.open(table)) {
                generate(table, scaleFactor, rows);
            }
        }
    }

    private static void checkScaleFactor(double scaleFactor) {
        if (!(scaleFactor > 0) || scaleFactor > MAX_SCALE_FACTOR) {
            throw new IllegalArgumentException("the TPC-H scale factor must be > 0 and at most " + (long) MAX_SCALE_FACTOR
                    + " (beyond that part keys overflow INTEGER), not " + scaleFactor);
        }
    }

    private static <E extends TpchEntity> void generate(TpchTableDef table, double scaleFactor, TableSink rows) {
        @SuppressWarnings("unchecked")
        TpchTable<E> source = (TpchTable<E>) table.source();
        List<Function<E, Object>> getters = new ArrayList<>();
        for (ColumnDef c : table.schema().columns()) {
            getters.add(getter(source, c));
        }
        for (E entity : source.createGenerator(scaleFactor, 1, 1)) {
            Object[] row = new Object[getters.size()];
            for (int i = 0; i < row.length; i++) {
                row[i] = getters.get(i).apply(entity);
            }
            rows.accept(row);
        }
    }

    /** Reads a generated column as the Java value numacol's column type takes. */
    private static <E extends TpchEntity> Function<E, Object> getter(TpchTable<E> source, ColumnDef def) {
        TpchColumn<E> column = source.getColumns().stream().filter(c -> c.getColumnName().equals(def.name()))
                .findFirst().orElseThrow(() -> new IllegalStateException("the generator has no column " + def.name()));
        boolean money = column.getType().getBase() == TpchColumnType.Base.DOUBLE;
        return switch (def.type().kind()) {
            // The generator's doubles are cents / 100: rounding recovers the exact cents.
            case DECIMAL -> money
                    ? e -> BigDecimal.valueOf(Math.round(column.getDouble(e) * 100), 2)
                    : e -> BigDecimal.valueOf(integral(column, e), 0).setScale(2);
            case INTEGER -> e -> Math.toIntExact(integral(column, e));
            case BIGINT -> e -> integral(column, e);
            case DATE -> e -> LocalDate.ofEpochDay(column.getDate(e));
            case CHAR, VARCHAR -> column::getString;
            default -> throw new IllegalStateException("no TPC-H column is " + def.type());
        };
    }

    private static <E extends TpchEntity> long integral(TpchColumn<E> column, E entity) {
        return switch (column.getType().getBase()) {
            case INTEGER -> column.getInteger(entity);
            case IDENTIFIER -> column.getIdentifier(entity);
            default -> throw new IllegalStateException(column.getColumnName() + " is not integral: " + column.getType().getBase());
        };
    }

    private static TpchTableDef table(String name, TpchTable<?> source, String... columns) {
        List<ColumnDef> defs = new ArrayList<>();
        for (String column : columns) {
            int blank = column.indexOf(' ');
            defs.add(new ColumnDef(column.substring(0, blank), ColumnType.parse(column.substring(blank + 1)), false));
        }
        return new TpchTableDef(name, new TableSchema(defs), source);
    }
}
