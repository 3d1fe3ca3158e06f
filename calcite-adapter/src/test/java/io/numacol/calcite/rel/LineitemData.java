package io.numacol.calcite.rel;

import io.numacol.database.Appender;
import io.numacol.jdbc.NumacolDriver;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** TPC-H's lineitem with seeded random rows, kept in Java too for reference computations. */
record LineitemData(List<Row> rows) {

    static final String CREATE = """
            CREATE TABLE lineitem (l_orderkey BIGINT NOT NULL, l_partkey BIGINT NOT NULL, l_suppkey BIGINT NOT NULL,
              l_linenumber INTEGER NOT NULL, l_quantity DECIMAL(15,2) NOT NULL, l_extendedprice DECIMAL(15,2) NOT NULL,
              l_discount DECIMAL(15,2) NOT NULL, l_tax DECIMAL(15,2) NOT NULL, l_returnflag CHAR(1) NOT NULL,
              l_linestatus CHAR(1) NOT NULL, l_shipdate DATE NOT NULL, l_commitdate DATE NOT NULL,
              l_receiptdate DATE NOT NULL, l_shipinstruct CHAR(25) NOT NULL, l_shipmode CHAR(10) NOT NULL,
              l_comment VARCHAR(44) NOT NULL)""";

    record Row(long orderkey, long partkey, long suppkey, int linenumber, BigDecimal quantity, BigDecimal extendedprice,
               BigDecimal discount, BigDecimal tax, String returnflag, String linestatus, LocalDate shipdate,
               LocalDate commitdate, LocalDate receiptdate, String shipinstruct, String shipmode, String comment) {
        Object[] values() {
            return new Object[]{orderkey, partkey, suppkey, linenumber, quantity, extendedprice, discount, tax,
                    returnflag, linestatus, shipdate, commitdate, receiptdate, shipinstruct, shipmode, comment};
        }
    }

    private static final String[] INSTRUCT = {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"};
    private static final String[] MODE = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};
    private static final String[] WORDS = {"furiously", "quick", "deposits", "special", "requests", "carefully", "ironic", "final"};

    static LineitemData load(Connection c, int count, long seed) throws SQLException {
        c.createStatement().execute(CREATE);
        Random r = new Random(seed);
        List<Row> rows = new ArrayList<>();
        LocalDate start = LocalDate.of(1992, 1, 2);
        try (Appender a = NumacolDriver.database(c).appender("lineitem")) {
            for (int i = 0; i < count; i++) {
                LocalDate ship = start.plusDays(r.nextInt(2526));
                String flag = ship.isBefore(LocalDate.of(1995, 6, 17)) ? (r.nextBoolean() ? "R" : "A") : "N";
                Row row = new Row(1 + i / 4, 1 + r.nextInt(2000), 1 + r.nextInt(100), 1 + i % 4,
                        BigDecimal.valueOf(1 + r.nextInt(50)).setScale(2),
                        BigDecimal.valueOf(90_000 + r.nextInt(10_000_000), 2),
                        BigDecimal.valueOf(r.nextInt(11), 2), BigDecimal.valueOf(r.nextInt(9), 2),
                        flag, ship.isAfter(LocalDate.of(1995, 6, 17)) ? "O" : "F", ship, ship.plusDays(r.nextInt(60) - 30),
                        ship.plusDays(1 + r.nextInt(30)), INSTRUCT[r.nextInt(INSTRUCT.length)], MODE[r.nextInt(MODE.length)],
                        WORDS[r.nextInt(WORDS.length)] + " " + WORDS[r.nextInt(WORDS.length)]);
                rows.add(row);
                a.append(row.values());
            }
        }
        return new LineitemData(List.copyOf(rows));
    }
}
