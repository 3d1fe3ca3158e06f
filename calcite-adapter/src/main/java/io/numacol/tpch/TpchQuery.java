package io.numacol.tpch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One of the 22 TPC-H queries (resources {@code /tpch/qNN.sql}, validation parameters) with its
 * scale-factor parameter filled in, and the result columns its ORDER BY fixes (1-based; a file
 * says them in a {@code -- order keys:} line).
 */
public record TpchQuery(int number, String sql, int[] orderKeys) {

    public static TpchQuery load(int number, double scaleFactor) {
        if (number < 1 || number > 22) {
            throw new IllegalArgumentException("TPC-H has queries 1..22, not " + number);
        }
        String name = String.format(Locale.ROOT, "/tpch/q%02d.sql", number);
        String text;
        try (InputStream in = TpchQuery.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the class path");
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Integer> keys = new ArrayList<>();
        StringBuilder sql = new StringBuilder();
        for (String line : text.split("\n")) {
            if (line.startsWith("-- order keys:")) {
                for (String key : line.substring("-- order keys:".length()).split(",")) {
                    String column = key.strip().split(" ")[0];
                    if (!column.equals("none")) {
                        keys.add(Integer.parseInt(column));
                    }
                }
            } else if (!line.startsWith("--")) {
                sql.append(line).append('\n');
            }
        }
        // Q11's threshold is 0.0001 / SF (clause 2.4.11.3).
        String fraction = new BigDecimal("0.0001").divide(BigDecimal.valueOf(scaleFactor)).toPlainString();
        return new TpchQuery(number, sql.toString().replace("${fraction}", fraction),
                keys.stream().mapToInt(Integer::intValue).toArray());
    }
}
