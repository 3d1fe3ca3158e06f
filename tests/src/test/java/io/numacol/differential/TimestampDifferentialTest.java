package io.numacol.differential;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Random;

/**
 * TIMESTAMP columns against DuckDB: filters, IN lists, grouping, MIN and MAX, joins on a
 * timestamp and between a timestamp and a date, ordering, EXTRACT, casts and interval
 * arithmetic, over seeded values to the millisecond from before 1900 to after 2262 (the end of
 * nanosecond timestamps), with NULLs, repeats, and times around the 2024 DST changes.
 */
class TimestampDifferentialTest {
    private static final DateTimeFormatter TEXT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
    private static EnginePair engines;

    @BeforeAll
    static void load() throws SQLException {
        engines = new EnginePair("jdbc:numacol:mem:timestamps;rowsPerPart=500");
        Random random = new Random(20261125);
        // around the DST changes of 2024 in Europe and the US (no zone: plain wall-clock times)
        LocalDateTime[] pool = pool(random, LocalDateTime.of(2024, 3, 31, 1, 30), LocalDateTime.of(2024, 11, 3, 1, 0), 7200);
        String a = EnginePair.insert("a", 2000, i -> i + ", " + literal(random, pool) + ", " + random.nextInt(7) + ", "
                + (random.nextInt(10) == 0 ? "NULL" : "DATE '" + LocalDate.of(1969, 12, 30).plusDays(random.nextInt(4)) + "'"));
        String b = EnginePair.insert("b", 400, i -> i + ", " + literal(random, pool));
        engines.executeOnBoth("CREATE TABLE a (id INTEGER, ts TIMESTAMP, g INTEGER, d DATE)",
                "CREATE TABLE b (id INTEGER, ts TIMESTAMP)", a, b);
    }

    /**
     * 300 wall clocks to the millisecond: from 1850 to 1970, from 2262 (the end of nanosecond
     * timestamps) to 2762, within two hours after {@code spring}, within {@code fallSeconds}
     * after {@code fall}, and within a day of 1970-01-01.
     */
    static LocalDateTime[] pool(Random random, LocalDateTime spring, LocalDateTime fall, int fallSeconds) {
        LocalDateTime[] pool = new LocalDateTime[300];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = switch (i % 6) {
                case 0 -> LocalDateTime.of(1850 + random.nextInt(120), 1 + random.nextInt(12), 1 + random.nextInt(28),
                        random.nextInt(24), random.nextInt(60), random.nextInt(60), random.nextInt(1000) * 1_000_000);
                case 1 -> LocalDateTime.of(2262 + random.nextInt(500), 1 + random.nextInt(12), 1 + random.nextInt(28),
                        random.nextInt(24), random.nextInt(60), random.nextInt(60));
                case 2 -> spring.plusMinutes(random.nextInt(120)).plusNanos(random.nextInt(1000) * 1_000_000L);
                case 3 -> fall.plusSeconds(random.nextInt(fallSeconds));
                default -> LocalDateTime.of(1969, 12, 31, 23, 59, 59).plusNanos(random.nextInt(2000) * 1_000_000L)
                        .plusDays(random.nextInt(3) - 1);
            };
        }
        return pool;
    }

    private static String literal(Random random, LocalDateTime[] pool) {
        if (random.nextInt(12) == 0) {
            return "NULL";
        }
        return "TIMESTAMP '" + TEXT.format(pool[random.nextInt(pool.length)]) + "'";
    }

    @AfterAll
    static void close() throws SQLException {
        engines.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT id, ts FROM a WHERE ts < TIMESTAMP '1970-01-01 00:00:00'",
            "SELECT id FROM a WHERE ts >= TIMESTAMP '2024-03-31 02:00:00' AND ts < TIMESTAMP '2024-03-31 03:00:00.5'",
            "SELECT id FROM a WHERE ts BETWEEN TIMESTAMP '1969-12-31 23:59:59.999' AND TIMESTAMP '1970-01-01 00:00:00.001'",
            // DATE literals (the plan cache makes them parameters) and the short spellings DuckDB reads
            "SELECT id FROM a WHERE ts >= DATE '1969-12-31' AND ts < DATE '1970-01-02'",
            "SELECT id FROM a WHERE ts > TIMESTAMP '2024-03-31 02:30' AND ts < '2024-04-01'",
            "SELECT id FROM a WHERE ts = TIMESTAMP '2024-03-31T01:30:00' OR ts < TIMESTAMP '1900-01-01'",
            "SELECT id FROM a WHERE ts > TIMESTAMP '2262-04-11 23:47:16.854' OR ts IS NULL",
            "SELECT id FROM a WHERE ts IN (SELECT ts FROM b WHERE id < 50)",
            "SELECT id FROM a WHERE ts NOT IN (SELECT ts FROM b WHERE ts IS NOT NULL)",
            "SELECT ts, COUNT(*), MIN(id), MAX(g) FROM a GROUP BY ts",
            "SELECT g, MIN(ts), MAX(ts), COUNT(ts), COUNT(DISTINCT ts) FROM a GROUP BY g",
            "SELECT MIN(ts), MAX(ts) FROM a WHERE g = 3",
            "SELECT a.id, b.id FROM a JOIN b ON a.ts = b.ts",
            "SELECT a.id, b.ts FROM a LEFT JOIN b ON a.ts = b.ts AND b.id < 100 WHERE a.g = 1",
            "SELECT id FROM a WHERE ts >= d AND ts < d + INTERVAL '1' DAY",
            "SELECT id, CAST(ts AS DATE) FROM a WHERE g = 2",
            "SELECT id, CAST(ts AS VARCHAR) FROM a WHERE g = 3",
            "SELECT date_trunc('month', ts), COUNT(*), MIN(id) FROM a GROUP BY 1",
            "SELECT id, date_trunc('week', ts), date_trunc('quarter', ts), date_trunc('hour', ts), date_trunc('day', d) FROM a WHERE g = 5",
            "SELECT EXTRACT(YEAR FROM ts), EXTRACT(MONTH FROM ts), EXTRACT(HOUR FROM ts), COUNT(*) FROM a GROUP BY 1, 2, 3",
            "SELECT id, ts + INTERVAL '1' HOUR, ts - INTERVAL '2' DAY FROM a WHERE g = 4 AND ts < TIMESTAMP '2500-01-01 00:00:00'",
            "SELECT id, ts FROM a ORDER BY ts DESC NULLS LAST, id LIMIT 25",
            "SELECT ts FROM a UNION SELECT ts FROM b",
            "SELECT id FROM a WHERE CAST(ts AS DATE) = d",
            // a date minus a date is the days apart, a BIGINT, as in DuckDB and PostgreSQL
            "SELECT id, d - DATE '1970-01-01', DATE '2024-01-01' - d, id - g FROM a WHERE g = 6",
            "SELECT d - DATE '1969-12-30' AS days, COUNT(*) FROM a GROUP BY 1",
            "SELECT COUNT(*) FROM a x JOIN a y ON x.id = y.id + 1 WHERE x.d - y.d = 1",
            "SELECT id FROM a WHERE CAST(ts AS DATE) - d > 0 AND g < 3",
    })
    void agreesWithDuckDb(String sql) throws SQLException {
        engines.assertAgree(sql);
    }
}
