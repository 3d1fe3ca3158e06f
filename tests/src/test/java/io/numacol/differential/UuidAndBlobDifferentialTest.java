package io.numacol.differential;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.SQLException;
import java.util.HexFormat;
import java.util.Random;
import java.util.UUID;

/**
 * UUID and BLOB (VARBINARY) columns against DuckDB: filters, IN lists and subqueries, grouping,
 * MIN and MAX, joins, ordering, set operations, over seeded values with NULLs and repeats. The
 * edge values are those an implementation comparing signed numbers or signed bytes gets wrong:
 * UUIDs with the top bit set, bytes 0x7f, 0x80 and 0xff, the empty BLOB and prefixes; and
 * where Calcite's operators order UUIDs (a sort above a UNION, a window, MIN and MAX over a
 * UNION), which compare java.util.UUIDs signed unless numacol rewrites them.
 */
class UuidAndBlobDifferentialTest {
    private static EnginePair engines;

    @BeforeAll
    static void load() throws SQLException {
        engines = new EnginePair("jdbc:numacol:mem:uuids;rowsPerPart=500");
        Random random = new Random(20261125);
        String[] uuids = new String[200];
        for (int i = 0; i < uuids.length; i++) {
            uuids[i] = switch (i) {
                case 0 -> "00000000-0000-0000-0000-000000000000";
                case 1 -> "ffffffff-ffff-ffff-ffff-ffffffffffff";
                case 2 -> "80000000-0000-0000-0000-000000000000";
                case 3 -> "7fffffff-ffff-ffff-ffff-ffffffffffff";
                case 4 -> "00000000-0000-0000-8000-000000000000";
                default -> new UUID(random.nextLong(), random.nextLong()).toString();
            };
        }
        String[] blobs = new String[120];
        for (int i = 0; i < blobs.length; i++) {
            byte[] b = switch (i) {
                case 0 -> new byte[0];
                case 1 -> new byte[] {0};
                case 2 -> new byte[] {0x7f};
                case 3 -> new byte[] {(byte) 0x80};
                case 4 -> new byte[] {(byte) 0xff};
                case 5 -> new byte[] {1, 0};
                case 6 -> new byte[] {1};
                default -> {
                    byte[] r = new byte[random.nextInt(7)];
                    random.nextBytes(r);
                    yield r;
                }
            };
            blobs[i] = "X'" + HexFormat.of().formatHex(b) + "'";
        }
        StringBuilder a = new StringBuilder("INSERT INTO a VALUES ");
        StringBuilder b = new StringBuilder("INSERT INTO b VALUES ");
        for (int i = 0; i < 2000; i++) {
            a.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append(uuid(random, uuids)).append(", ")
                    .append(blob(random, blobs)).append(", ").append(random.nextInt(7)).append(')');
        }
        for (int i = 0; i < 400; i++) {
            b.append(i == 0 ? "" : ", ").append('(').append(i).append(", ").append(uuid(random, uuids)).append(", ")
                    .append(blob(random, blobs)).append(')');
        }
        engines.executeOnBoth("CREATE TABLE a (id INTEGER, u UUID, bl BLOB, g INTEGER)",
                "CREATE TABLE b (id INTEGER, u UUID, bl BLOB)",
                a.toString(),
                b.toString());
    }

    private static String uuid(Random random, String[] pool) {
        return random.nextInt(12) == 0 ? "NULL" : "UUID '" + pool[random.nextInt(pool.length)] + "'";
    }

    private static String blob(Random random, String[] pool) {
        return random.nextInt(12) == 0 ? "NULL" : pool[random.nextInt(pool.length)];
    }

    @AfterAll
    static void close() throws SQLException {
        engines.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT id, u FROM a WHERE u < UUID '80000000-0000-0000-0000-000000000000'",
            "SELECT id FROM a WHERE u >= UUID '7fffffff-ffff-ffff-ffff-ffffffffffff' AND g < 3",
            "SELECT id FROM a WHERE u = UUID 'ffffffff-ffff-ffff-ffff-ffffffffffff' OR u IS NULL",
            "SELECT id FROM a WHERE u = 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'",
            "SELECT id FROM a WHERE u IN (UUID '00000000-0000-0000-0000-000000000000', UUID '00000000-0000-0000-8000-000000000000')",
            "SELECT id FROM a WHERE u IN (SELECT u FROM b WHERE id < 50)",
            "SELECT u, COUNT(*), MIN(id), MAX(g) FROM a GROUP BY u",
            "SELECT g, MIN(u), MAX(u), COUNT(u), COUNT(DISTINCT u) FROM a GROUP BY g",
            "SELECT a.id, b.id FROM a JOIN b ON a.u = b.u",
            "SELECT a.id, b.u FROM a LEFT JOIN b ON a.u = b.u AND b.id < 100 WHERE a.g = 1",
            "SELECT id, u FROM a ORDER BY u DESC NULLS LAST, id LIMIT 25",
            "SELECT u, id FROM a WHERE g = 5 ORDER BY u, id",
            "SELECT u FROM a UNION SELECT u FROM b",
            "SELECT u, 0 FROM a UNION SELECT u, 1 FROM b ORDER BY u NULLS FIRST, 2 LIMIT 40",
            "SELECT id, ROW_NUMBER() OVER (PARTITION BY g ORDER BY u, id) AS rn FROM a ORDER BY rn, id",
            "SELECT u, id FROM (SELECT u, id FROM a WHERE g = 3 ORDER BY id LIMIT 100) ORDER BY u DESC NULLS LAST, id",
            "SELECT id, u FROM (SELECT id, u, ROW_NUMBER() OVER (ORDER BY id) AS rn FROM a) WHERE u > UUID '7fffffff-0000-0000-0000-000000000000' AND rn < 900",
            "SELECT MIN(u), MAX(u) FROM (SELECT u FROM a WHERE g = 1 UNION ALL SELECT u FROM b)",
            "SELECT k, MAX(u), COUNT(DISTINCT u) FROM (SELECT g AS k, u FROM a UNION ALL SELECT id % 7, u FROM b) GROUP BY k",
            "SELECT id, CAST(u AS VARCHAR) FROM a WHERE g = 6",
            "SELECT id, bl FROM a WHERE bl > X'7f'",
            "SELECT id FROM a WHERE bl < X'0100' AND g > 3",
            "SELECT id FROM a WHERE bl = X'' OR bl = X'ff'",
            "SELECT id FROM a WHERE bl IN (X'00', X'80', X'0100')",
            "SELECT id FROM a WHERE bl IN (SELECT bl FROM b WHERE id < 80)",
            "SELECT bl, COUNT(*), MIN(id) FROM a GROUP BY bl",
            "SELECT g, MIN(bl), MAX(bl), COUNT(DISTINCT bl) FROM a GROUP BY g",
            "SELECT a.id, b.id FROM a JOIN b ON a.bl = b.bl",
            "SELECT a.id, b.id FROM a JOIN b ON a.u = b.u AND a.bl <> b.bl",
            "SELECT id, bl FROM a ORDER BY bl DESC NULLS FIRST, id LIMIT 30",
            "SELECT bl, id FROM a WHERE g = 2 ORDER BY bl, id",
            "SELECT bl FROM a EXCEPT SELECT bl FROM b",
            "SELECT OCTET_LENGTH(bl), COUNT(*) FROM a GROUP BY 1",
    })
    void agreesWithDuckDb(String sql) throws SQLException {
        engines.assertAgree(sql);
    }
}
