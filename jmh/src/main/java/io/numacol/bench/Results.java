package io.numacol.bench;

import org.openjdk.jmh.infra.Blackhole;

import java.sql.ResultSet;
import java.sql.SQLException;

/** What every benchmark does with an answer: reads it to the end, as an application would. */
final class Results {
    private Results() {
    }

    static void drain(ResultSet rs, Blackhole bh) throws SQLException {
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            for (int c = 1; c <= columns; c++) {
                bh.consume(rs.getObject(c));
            }
        }
    }
}
