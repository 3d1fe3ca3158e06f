package io.numacol.differential;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A seeded random schema and its data, loaded alike into each engine: tables {@code t0..} with a
 * dense key {@code k} and columns of integers (SMALLINT among them), DECIMALs, DOUBLEs, DATEs,
 * strings, BOOLEANs, TIMESTAMPs and TIMESTAMPs WITH TIME ZONE, drawn from value pools shared by
 * all tables of a type (so that joins match), with NULLs, NOT NULL columns, duplicates, skew,
 * constant and all-NULL columns, edge values (negative epoch days, -0.0, long strings, timestamps
 * around 1970 and after 2262, instants at New York's DST changes) and sometimes an empty table.
 * Both engines run in a session zone of the schema's ({@link #zone}). Small parts in numacol give
 * every column several dictionaries. TINYINT, REAL, TIME, UUID and VARBINARY have differential
 * tests of their own.
 */
final class RandomSchema {
    /** What a column holds, as the query generator sees it. */
    enum Type {
        INT, DEC, DBL, DATE, STR, BOOL, TS, TSTZ;

        boolean numeric() {
            return this == INT || this == DEC || this == DBL;
        }
    }

    record Column(String name, Type type, String sqlType, boolean notNull) {
    }

    record Table(String name, List<Column> columns, int rows) {
    }

    private static final String[] STRINGS = {"", "a", "b", "ab", "abc", "b%", "A", "a b", "x_y", "zz", "éé", "bb", "ba",
            "abcdefghijklmno", "B", "%", "Москва", "東京", "😀", "a😀b"};
    private static final int[] ROWS = {0, 1, 2, 7, 60, 400, 1500};
    private static final String[][] DECIMALS = {{"12", "2"}, {"18", "4"}, {"5", "0"}, {"9", "3"}, {"15", "2"}};
    private static final LocalDate BASE = LocalDate.of(2022, 1, 1);

    final long seed;
    final List<Table> tables;

    private RandomSchema(long seed, List<Table> tables) {
        this.seed = seed;
        this.tables = tables;
    }

    static RandomSchema generate(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int count = random.nextInt(2, 5);
        List<Table> tables = new ArrayList<>();
        for (int t = 0; t < count; t++) {
            List<Column> columns = new ArrayList<>();
            columns.add(new Column("k", Type.INT, "BIGINT", true));
            int width = random.nextInt(3, 9);
            for (int c = 0; c < width; c++) {
                Type type = Type.values()[random.nextInt(Type.values().length)];
                String sqlType = switch (type) {
                    case INT -> new String[] {"INTEGER", "BIGINT", "SMALLINT"}[random.nextInt(3)];
                    case DEC -> {
                        String[] ps = DECIMALS[random.nextInt(DECIMALS.length)];
                        yield "DECIMAL(" + ps[0] + "," + ps[1] + ")";
                    }
                    case DBL -> "DOUBLE";
                    case DATE -> "DATE";
                    case STR -> "VARCHAR(" + (random.nextBoolean() ? 20 : 40) + ")";
                    case BOOL -> "BOOLEAN";
                    case TS -> "TIMESTAMP";
                    case TSTZ -> "TIMESTAMP WITH TIME ZONE";
                };
                columns.add(new Column("c" + c, type, sqlType, random.nextInt(5) == 0));
            }
            int rows = ROWS[random.nextInt(ROWS.length)];
            tables.add(new Table("t" + t, List.copyOf(columns), t == 0 && rows == 0 ? 60 : rows));
        }
        return new RandomSchema(seed, List.copyOf(tables));
    }

    /** The session time zone of both engines, which instants are read and shown in (a random of its own: the data stay). */
    String zone() {
        return new String[]{"UTC", "America/New_York", "Asia/Kolkata"}[new SplittableRandom(seed * 17 + 3).nextInt(3)];
    }

    void load(Connection connection) throws SQLException {
        for (Table table : tables) {
            StringBuilder ddl = new StringBuilder("CREATE TABLE " + table.name() + " (");
            StringBuilder marks = new StringBuilder();
            for (int i = 0; i < table.columns().size(); i++) {
                Column c = table.columns().get(i);
                ddl.append(i == 0 ? "" : ", ").append(c.name()).append(' ').append(c.sqlType()).append(c.notNull() ? " NOT NULL" : "");
                marks.append(i == 0 ? "?" : ", ?");
            }
            try (Statement s = connection.createStatement()) {
                s.execute(ddl.append(')').toString());
            }
            SplittableRandom random = new SplittableRandom(seed * 131 + table.name().hashCode());
            List<Distribution> distributions = new ArrayList<>();
            for (Column c : table.columns()) {
                distributions.add(new Distribution(random.split(), c));
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table.name() + " VALUES (" + marks + ")")) {
                for (int r = 0; r < table.rows(); r++) {
                    insert.setLong(1, r);
                    for (int i = 1; i < table.columns().size(); i++) {
                        distributions.get(i).set(insert, i + 1);
                    }
                    insert.addBatch();
                    if (r % 500 == 499) {
                        insert.executeBatch();
                    }
                }
                insert.executeBatch();
            }
        }
    }

    String describe() {
        StringBuilder out = new StringBuilder();
        for (Table t : tables) {
            out.append(t.name()).append('(').append(t.rows()).append(" rows: ");
            for (Column c : t.columns()) {
                out.append(c.name()).append(' ').append(c.sqlType()).append(c.notNull() ? " NOT NULL" : "").append(", ");
            }
            out.setLength(out.length() - 2);
            out.append(") ");
        }
        return out.toString().strip();
    }

    /** How one column's values are drawn: a pool of a few values, a wide range, skew, a constant or only NULLs. */
    private static final class Distribution {
        private final SplittableRandom random;
        private final Column column;
        private final int shape;
        private final int nullsIn;

        Distribution(SplittableRandom random, Column column) {
            this.random = random;
            this.column = column;
            this.shape = random.nextInt(10);
            this.nullsIn = column.notNull() ? 0 : new int[]{0, 2, 5, 9, 9, 9}[random.nextInt(6)];
        }

        void set(PreparedStatement p, int index) throws SQLException {
            if (nullsIn > 0 && ((shape == 9 && !column.notNull()) || random.nextInt(nullsIn) == 0)) {
                p.setNull(index, switch (column.type()) {
                    case INT -> Types.BIGINT;
                    case DEC -> Types.DECIMAL;
                    case DBL -> Types.DOUBLE;
                    case DATE -> Types.DATE;
                    case STR -> Types.VARCHAR;
                    case BOOL -> Types.BOOLEAN;
                    case TS, TSTZ -> Types.TIMESTAMP;
                });
                return;
            }
            // 0-3: a few values, 4-5: many, 6-7: skewed to one, 8: one constant, 9: only NULLs where allowed
            int draw = switch (shape) {
                case 0, 1, 2, 3 -> random.nextInt(-3, 5);
                case 4, 5 -> random.nextInt(-1000, 1000);
                case 6, 7 -> random.nextInt(5) == 0 ? random.nextInt(-50, 50) : 1;
                default -> 2;
            };
            boolean edge = random.nextInt(40) == 0;
            switch (column.type()) {
                // not SMALLINT's -32768: whether -x fails then depends on the order the engines evaluate in
                // shape 5 of INTEGER and BIGINT columns: values whose sums pass 2^31 (and stay below 2^53,
                // where a DOUBLE average is exact before its one division)
                case INT -> p.setLong(index, !edge ? draw * (shape != 5 ? 1L : column.sqlType().equals("INTEGER") ? 200_000L
                        : column.sqlType().equals("BIGINT") ? 1_000_000_000L : 1L) : column.sqlType().equals("SMALLINT")
                        ? new long[]{0, -1, Short.MAX_VALUE, -Short.MAX_VALUE}[random.nextInt(4)]
                        : new long[]{0, -1, 99999, -100000}[random.nextInt(4)]);
                case DEC -> {
                    int scale = Integer.parseInt(column.sqlType().replaceAll(".*,(\\d+)\\)", "$1"));
                    long unscaled = edge ? 0 : draw * 37L + random.nextInt(0, 3);
                    p.setBigDecimal(index, BigDecimal.valueOf(unscaled, Math.min(scale, 2)));
                }
                case DBL -> p.setDouble(index, edge ? (random.nextBoolean() ? -0.0 : 0.0) : draw / 8.0);
                case DATE -> p.setDate(index, Date.valueOf(edge
                        ? new LocalDate[]{LocalDate.of(1969, 12, 31), LocalDate.of(2000, 2, 29), LocalDate.of(1970, 1, 1)}[random.nextInt(3)]
                        : BASE.plusDays(draw)));
                case STR -> p.setString(index, STRINGS[Math.floorMod(draw, STRINGS.length)]);
                case BOOL -> p.setBoolean(index, Math.floorMod(draw, 3) != 0);
                // 37 minutes and some milliseconds a step, so that values share days and hours; edges around 1970 and 2262
                case TS -> p.setTimestamp(index, Timestamp.valueOf(edge
                        ? new LocalDateTime[]{LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_000_000), LocalDateTime.of(1970, 1, 1, 0, 0),
                                LocalDateTime.of(2262, 4, 12, 0, 0, 0, 1_000_000)}[random.nextInt(3)]
                        : BASE.atStartOfDay().plusMinutes(draw * 37L).plusNanos(Math.floorMod(draw, 4) * 250_000_000L)));
                // instants with offsets of their own; edges around 1970 and New York's DST changes of 2024
                case TSTZ -> p.setObject(index, edge
                        ? new OffsetDateTime[]{OffsetDateTime.parse("1969-12-31T23:59:59.999Z"), OffsetDateTime.parse("2024-03-10T07:00Z"),
                                OffsetDateTime.parse("2024-11-03T01:30-05:00")}[random.nextInt(3)]
                        : BASE.atStartOfDay().plusMinutes(draw * 37L).atOffset(ZoneOffset.ofHours(Math.floorMod(draw, 3) - 1)));
            }
        }
    }
}
