package io.numacol.differential;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.util.SplittableRandom;

/**
 * Seeded tables {@code t1}, {@code t2}, {@code t3} of one shape, loaded alike into each engine:
 * {@code k} a dense key, the other columns with NULLs, duplicates, a skewed column and edge values.
 * Small parts in numacol give every column several dictionaries.
 */
public final class RandomTables {
    public static final String COLUMNS = "k BIGINT NOT NULL, k2 BIGINT, k3 BIGINT, ia INTEGER, ib INTEGER, "
            + "fd DOUBLE, dm DECIMAL(12,2), dd DATE, vs VARCHAR(20)";
    private static final String[] STRINGS = {"", "a", "b", "ab", "abc", "b%", "d", "x_y", "zz", "A", "éé", "bb"};

    private RandomTables() {
    }

    /** Creates and fills t1..t3 with {@code rows[i]} rows each; the same seed gives the same rows. */
    public static void load(Connection c, long seed, int... rows) throws SQLException {
        for (int t = 0; t < rows.length; t++) {
            String name = "t" + (t + 1);
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE " + name + " (" + COLUMNS + ")");
            }
            SplittableRandom random = new SplittableRandom(seed * 31 + t);
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + name + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (int r = 0; r < rows[t]; r++) {
                    insert.setLong(1, r);
                    setLong(insert, 2, random, random.nextInt(rows[t] / 2 + 1));
                    setLong(insert, 3, random, random.nextInt(5) == 0 ? random.nextInt(3) : random.nextInt(-50, 50));
                    setInt(insert, 4, random, random.nextInt(8) == 0 ? edge(random) : random.nextInt(-1000, 1000));
                    setInt(insert, 5, random, random.nextInt(-30, 30));
                    if (nullHere(random)) {
                        insert.setNull(6, Types.DOUBLE);
                    } else {
                        insert.setDouble(6, random.nextInt(4) == 0 ? random.nextInt(-1000, 1000) : random.nextInt(-100000, 100000) / 8.0);
                    }
                    if (nullHere(random)) {
                        insert.setNull(7, Types.DECIMAL);
                    } else {
                        insert.setBigDecimal(7, BigDecimal.valueOf(random.nextLong(-100_000_000L, 100_000_000L), 2));
                    }
                    if (nullHere(random)) {
                        insert.setNull(8, Types.DATE);
                    } else {
                        insert.setDate(8, Date.valueOf(LocalDate.of(2022, 1, 1).plusDays(random.nextInt(-400, 800))));
                    }
                    if (nullHere(random)) {
                        insert.setNull(9, Types.VARCHAR);
                    } else {
                        insert.setString(9, STRINGS[random.nextInt(STRINGS.length)]);
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

    private static int edge(SplittableRandom random) {
        return switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> -819;
            case 2 -> 9999;
            default -> 14009;
        };
    }

    private static boolean nullHere(SplittableRandom random) {
        return random.nextInt(7) == 0;
    }

    private static void setLong(PreparedStatement p, int i, SplittableRandom random, long v) throws SQLException {
        if (nullHere(random)) {
            p.setNull(i, Types.BIGINT);
        } else {
            p.setLong(i, v);
        }
    }

    private static void setInt(PreparedStatement p, int i, SplittableRandom random, int v) throws SQLException {
        if (nullHere(random)) {
            p.setNull(i, Types.INTEGER);
        } else {
            p.setInt(i, v);
        }
    }
}
