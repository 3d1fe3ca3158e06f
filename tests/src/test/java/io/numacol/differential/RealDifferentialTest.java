package io.numacol.differential;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.SQLException;
import java.util.Random;

/**
 * REAL columns against DuckDB's FLOAT: filters with literals that a float cannot hold exactly
 * (0.1, 0.3), IN lists, grouping, MIN, MAX, SUM and AVG (DOUBLEs in both), joins on a REAL and
 * between a REAL and a DOUBLE, ordering, casts and float arithmetic, over seeded values with
 * NULLs, repeats, negative zero, tiny and huge magnitudes.
 */
class RealDifferentialTest {
    private static EnginePair engines;

    @BeforeAll
    static void load() throws SQLException {
        engines = new EnginePair("jdbc:numacol:mem:reals;rowsPerPart=500");
        Random random = new Random(20261126);
        String[] pool = new String[200];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = switch (i % 8) {
                case 0 -> Float.toString(random.nextInt(2000) / 10f - 100); // tenths: inexact in binary
                case 1 -> Float.toString(random.nextInt(64) / 4f); // quarters: exact
                case 2 -> Float.toString((float) random.nextGaussian() * 1e30f);
                case 3 -> Float.toString((float) random.nextGaussian() * 1e-30f);
                case 4 -> "0.1";
                case 5 -> Integer.toString(16_777_216 + random.nextInt(8)); // past 2^24: rounds to even
                case 6 -> "-0.0";
                default -> Float.toString(random.nextFloat());
            };
        }
        StringBuilder a = new StringBuilder("INSERT INTO a VALUES ");
        StringBuilder b = new StringBuilder("INSERT INTO b VALUES ");
        for (int i = 0; i < 2000; i++) {
            String r = random.nextInt(12) == 0 ? "NULL" : pool[random.nextInt(pool.length)];
            String d = random.nextInt(12) == 0 ? "NULL" : random.nextBoolean() ? r : Double.toString(random.nextInt(100) / 4.0);
            a.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append(r).append(", ").append(random.nextInt(7))
                    .append(", ").append(d).append(')');
        }
        for (int i = 0; i < 300; i++) {
            b.append(i == 0 ? "" : ", ").append('(').append(i).append(", ")
                    .append(random.nextInt(12) == 0 ? "NULL" : pool[random.nextInt(pool.length)]).append(')');
        }
        engines.executeOnBoth("CREATE TABLE a (id INTEGER, r REAL, g INTEGER, d DOUBLE)",
                "CREATE TABLE b (id INTEGER, r FLOAT4)",
                a.toString(),
                b.toString());
    }

    @AfterAll
    static void close() throws SQLException {
        engines.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT id, r FROM a WHERE r < 0.1",
            "SELECT id FROM a WHERE r = 0.1",
            "SELECT id FROM a WHERE r <> 0.1 AND r >= 0.3",
            "SELECT id FROM a WHERE r BETWEEN -1.5 AND 16.25 OR r IS NULL",
            "SELECT id FROM a WHERE r > 16777216",
            "SELECT id FROM a WHERE r IN (0.25, 0.1, 16777218, -3.7)",
            "SELECT id FROM a WHERE r = 0",
            "SELECT id FROM a WHERE r IN (SELECT r FROM b WHERE id < 50)",
            "SELECT r, COUNT(*), MIN(id), MAX(g) FROM a GROUP BY r",
            "SELECT g, MIN(r), MAX(r), COUNT(r), COUNT(DISTINCT r) FROM a GROUP BY g",
            "SELECT g, SUM(r), AVG(r) FROM a WHERE r BETWEEN -100 AND 100 GROUP BY g",
            "SELECT MIN(r), MAX(r), SUM(CAST(r AS DOUBLE)) FROM a WHERE g = 3 AND ABS(r) < 1e6",
            "SELECT a.id, b.id FROM a JOIN b ON a.r = b.r",
            "SELECT a.id, b.r FROM a LEFT JOIN b ON a.r = b.r AND b.id < 100 WHERE a.g = 1",
            "SELECT id FROM a WHERE r = d",
            // REAL with REAL stays REAL in both; REAL + 1.5 is a DOUBLE to Calcite (and PostgreSQL), a FLOAT to DuckDB
            "SELECT id, r * 2, r + CAST(1.5 AS REAL), r * r - r, -r FROM a WHERE g = 4 AND ABS(r) < 1e6",
            "SELECT id, r / CAST(3 AS REAL) FROM a WHERE g = 6 AND r <> 0",
            "SELECT id, CAST(r AS DOUBLE), CAST(d AS REAL) FROM a WHERE g = 2",
            "SELECT id, r FROM a ORDER BY r DESC NULLS LAST, id LIMIT 25",
            "SELECT id, r FROM a WHERE g = 5 ORDER BY r, id",
            "SELECT r FROM a UNION SELECT r FROM b",
    })
    void agreesWithDuckDb(String sql) throws SQLException {
        engines.assertAgree(sql);
    }
}
