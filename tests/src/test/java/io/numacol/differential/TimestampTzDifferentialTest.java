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
 * TIMESTAMP WITH TIME ZONE columns against DuckDB, both in a New York session: filters against
 * text, TIMESTAMPs and DATEs (read in the session's zone), grouping, MIN and MAX, COUNT DISTINCT,
 * joins on an instant, ordering, casts to DATE, TIMESTAMP and text and from TIMESTAMP, DATE and
 * text (with DuckDB's spellings TIMESTAMP WITH TIME ZONE and TIMESTAMPTZ), EXTRACT, date_trunc and interval
 * arithmetic (days and months on the wall clock), over seeded values written with and without
 * offsets: from before 1883 (New York's local mean time) to after 2262, with NULLs, repeats, and
 * wall-clock times in the DST gap and overlap of 2024.
 */
class TimestampTzDifferentialTest {
    private static final DateTimeFormatter TEXT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");
    private static final String[] OFFSETS = {"", "", "+00", "-05", "+05:30", "Z", "-08:00", "+01"};
    private static EnginePair engines;

    @BeforeAll
    static void load() throws SQLException {
        engines = EnginePair.inZone("jdbc:numacol:mem:instants;rowsPerPart=500", "America/New_York");
        Random random = new Random(20261126);
        // New York's DST gap (02:00-03:00 is skipped) and overlap (01:00-02:00 comes twice)
        LocalDateTime[] walls = TimestampDifferentialTest.pool(random, LocalDateTime.of(2024, 3, 10, 1, 30),
                LocalDateTime.of(2024, 11, 3, 0, 30), 10_800);
        String[] pool = new String[walls.length];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = TEXT.format(walls[i]) + OFFSETS[random.nextInt(OFFSETS.length)];
        }
        String a = EnginePair.insert("a", 2000, i -> {
            String ts = literal(random, pool);
            // half the wall clocks are the instant's own text without its offset, so that some are equal
            String wall = random.nextBoolean() && !ts.equals("NULL") ? ts.substring(1, 24) : pool[random.nextInt(pool.length)].substring(0, 23);
            String d = random.nextInt(10) == 0 ? "NULL" : "DATE '" + LocalDate.of(2024, 3, 9).plusDays(random.nextInt(3)) + "'";
            return i + ", " + ts + ", " + random.nextInt(7) + ", " + d + ", TIMESTAMP '" + wall + "', " + ts;
        });
        String b = EnginePair.insert("b", 400, i -> i + ", " + literal(random, pool));
        engines.executeOnBoth("CREATE TABLE a (id INTEGER, ts TIMESTAMPTZ, g INTEGER, d DATE, w TIMESTAMP, s VARCHAR)",
                "CREATE TABLE b (id INTEGER, ts TIMESTAMPTZ)", a, b);
    }

    private static String literal(Random random, String[] pool) {
        return random.nextInt(12) == 0 ? "NULL" : "'" + pool[random.nextInt(pool.length)] + "'";
    }

    @AfterAll
    static void close() throws SQLException {
        engines.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT id, ts FROM a",
            "SELECT id, ts FROM a WHERE ts < '1970-01-01 00:00:00+00'",
            "SELECT id FROM a WHERE ts >= '2024-03-10 01:00:00' AND ts < '2024-03-10 04:00:00.5'",
            "SELECT id FROM a WHERE ts BETWEEN '2024-11-03 01:00:00-04' AND '2024-11-03 01:59:59.999-05'",
            "SELECT id FROM a WHERE ts > '2262-04-11 23:47:16.854Z' OR ts IS NULL",
            "SELECT id FROM a WHERE ts IN (SELECT ts FROM b WHERE id < 50)",
            "SELECT id FROM a WHERE ts NOT IN (SELECT ts FROM b WHERE ts IS NOT NULL)",
            "SELECT ts, COUNT(*), MIN(id), MAX(g) FROM a GROUP BY ts",
            "SELECT g, MIN(ts), MAX(ts), COUNT(ts), COUNT(DISTINCT ts) FROM a GROUP BY g",
            "SELECT MIN(ts), MAX(ts) FROM a WHERE g = 3",
            "SELECT a.id, b.id FROM a JOIN b ON a.ts = b.ts",
            "SELECT a.id, b.ts FROM a LEFT JOIN b ON a.ts = b.ts AND b.id < 100 WHERE a.g = 1",
            "SELECT id FROM a WHERE ts >= d AND ts < d + INTERVAL '1' DAY",
            "SELECT id FROM a WHERE ts = w",
            "SELECT id FROM a WHERE ts < w",
            "SELECT id FROM a WHERE CAST(ts AS TIMESTAMP) = w",
            "SELECT id FROM a WHERE ts < TIMESTAMP WITH TIME ZONE '2024-03-10 03:00:00' AND ts > TIMESTAMP WITH TIME ZONE '2024-03-10 01:30:00+00'",
            "SELECT id, CAST(w AS TIMESTAMP WITH TIME ZONE) FROM a WHERE g = 1",
            "SELECT id, CAST(s AS TIMESTAMPTZ), CAST(s AS TIMESTAMPTZ) = ts FROM a WHERE g = 3",
            "SELECT id, CAST(d AS TIMESTAMP WITH TIME ZONE) FROM a WHERE g = 2",
            "SELECT id, CAST(ts AS DATE) FROM a WHERE g = 2",
            "SELECT id FROM a WHERE CAST(ts AS DATE) = d",
            "SELECT id, CAST(ts AS TIMESTAMP) FROM a WHERE g = 5",
            "SELECT id, CAST(ts AS VARCHAR) FROM a WHERE g = 6",
            "SELECT EXTRACT(YEAR FROM ts), EXTRACT(MONTH FROM ts), EXTRACT(DAY FROM ts), EXTRACT(HOUR FROM ts), COUNT(*) FROM a GROUP BY 1, 2, 3, 4",
            "SELECT id, EXTRACT(MINUTE FROM ts), EXTRACT(SECOND FROM ts) FROM a WHERE g = 0",
            "SELECT id, ts + INTERVAL '1' HOUR, ts - INTERVAL '90' MINUTE FROM a WHERE g = 4 AND ts < '2500-01-01 00:00:00'",
            // days and months on the session's wall clock: 23 or 25 hours across a DST change
            "SELECT id, ts + INTERVAL '1' DAY, ts - INTERVAL '2' DAY, ts + INTERVAL '1' MONTH, ts - INTERVAL '13' MONTH FROM a"
                    + " WHERE g = 3 AND ts < '2500-01-01 00:00:00'",
            "SELECT id FROM a WHERE ts + INTERVAL '1' DAY > w + INTERVAL '1' DAY",
            // on the session's wall clock: a day is New York's, an hour in the overlap keeps its offset
            "SELECT date_trunc('day', ts), COUNT(*) FROM a GROUP BY 1",
            "SELECT id, date_trunc('hour', ts), date_trunc('month', ts), date_trunc('week', ts), date_trunc('second', ts) FROM a WHERE g = 5",
            "SELECT id, ts FROM a ORDER BY ts DESC NULLS LAST, id LIMIT 25",
            "SELECT ts FROM a UNION SELECT ts FROM b",
    })
    void agreesWithDuckDb(String sql) throws SQLException {
        engines.assertAgree(sql);
    }
}
