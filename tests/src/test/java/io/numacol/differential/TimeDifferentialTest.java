package io.numacol.differential;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.SQLException;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.Random;

/**
 * TIME columns against DuckDB: filters, IN lists, grouping, MIN and MAX, joins on a time and
 * with a timestamp's time of day, ordering, EXTRACT and interval arithmetic across midnight,
 * over seeded values to the millisecond with NULLs, repeats, midnight and the last millisecond.
 */
class TimeDifferentialTest {
    private static final DateTimeFormatter TEXT = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");
    private static EnginePair engines;

    @BeforeAll
    static void load() throws SQLException {
        engines = new EnginePair("jdbc:numacol:mem:times;rowsPerPart=500");
        Random random = new Random(20261127);
        LocalTime[] pool = new LocalTime[300];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = i == 0 ? LocalTime.MIDNIGHT
                    : i == 1 ? LocalTime.of(23, 59, 59, 999_000_000)
                    : i % 3 == 0 ? LocalTime.of(random.nextInt(24), random.nextInt(4) * 15)
                    : LocalTime.ofNanoOfDay(random.nextLong(86_400_000L) * 1_000_000L);
        }
        StringBuilder a = new StringBuilder("INSERT INTO a VALUES ");
        StringBuilder b = new StringBuilder("INSERT INTO b VALUES ");
        for (int i = 0; i < 2000; i++) {
            a.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append(literal(random, pool)).append(", ")
                    .append(random.nextInt(7)).append(", TIMESTAMP '2024-0").append(1 + random.nextInt(9)).append("-15 ")
                    .append(TEXT.format(pool[random.nextInt(pool.length)])).append("')");
        }
        for (int i = 0; i < 400; i++) {
            b.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append(literal(random, pool)).append(')');
        }
        engines.executeOnBoth("CREATE TABLE a (id INTEGER, t TIME, g INTEGER, ts TIMESTAMP)",
                "CREATE TABLE b (id INTEGER, t TIME)",
                a.toString(),
                b.toString());
    }

    private static String literal(Random random, LocalTime[] pool) {
        return random.nextInt(12) == 0 ? "NULL" : "TIME '" + TEXT.format(pool[random.nextInt(pool.length)]) + "'";
    }

    @AfterAll
    static void close() throws SQLException {
        engines.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT id, t FROM a WHERE t < TIME '06:00:00'",
            "SELECT id FROM a WHERE t >= TIME '6:00' AND t < '06:30'",
            "SELECT id FROM a WHERE t >= TIME '12:00:00' AND t < TIME '12:30:00.5'",
            "SELECT id FROM a WHERE t = TIME '00:00:00' OR t = TIME '23:59:59.999'",
            "SELECT id FROM a WHERE t > TIME '23:59:59' OR t IS NULL",
            "SELECT id FROM a WHERE t IN (TIME '00:00:00', TIME '06:15:00', TIME '18:45:00')",
            "SELECT id FROM a WHERE t IN (SELECT t FROM b WHERE id < 50)",
            "SELECT t, COUNT(*), MIN(id), MAX(g) FROM a GROUP BY t",
            "SELECT g, MIN(t), MAX(t), COUNT(t), COUNT(DISTINCT t) FROM a GROUP BY g",
            "SELECT a.id, b.id FROM a JOIN b ON a.t = b.t",
            "SELECT a.id, b.t FROM a LEFT JOIN b ON a.t = b.t AND b.id < 100 WHERE a.g = 1",
            "SELECT id FROM a WHERE t = CAST(ts AS TIME)",
            "SELECT id, t FROM a WHERE CAST(ts AS TIME) < t AND g = 2",
            "SELECT EXTRACT(HOUR FROM t), EXTRACT(MINUTE FROM t), COUNT(*) FROM a GROUP BY 1, 2",
            "SELECT id, t + INTERVAL '1' HOUR, t - INTERVAL '90' MINUTE FROM a WHERE g = 4",
            "SELECT id, CAST(t AS VARCHAR), CAST(ts AS VARCHAR) FROM a WHERE g = 5",
            "SELECT id, t FROM a ORDER BY t DESC NULLS LAST, id LIMIT 25",
            "SELECT t FROM a UNION SELECT t FROM b",
    })
    void agreesWithDuckDb(String sql) throws SQLException {
        engines.assertAgree(sql);
    }
}
