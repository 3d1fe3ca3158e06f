package io.numacol.slt;

import net.hydromatic.sqllogictest.OptionsParser;
import net.hydromatic.sqllogictest.SltSqlStatement;
import net.hydromatic.sqllogictest.SltTestFile;
import net.hydromatic.sqllogictest.SqlTestQuery;
import net.hydromatic.sqllogictest.SqlTestQueryOutputDescription;
import net.hydromatic.sqllogictest.TestStatistics;
import net.hydromatic.sqllogictest.executors.HsqldbExecutor;
import net.hydromatic.sqllogictest.executors.JdbcExecutor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.NoSuchAlgorithmException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SQLite's sqllogictest (the files {@code net.hydromatic:sql-logic-test} carries, run by its
 * runner as PostgreSQL would: {@code skipif/onlyif postgresql}), each file on numacol and on
 * HSQLDB. numacol must pass every query HSQLDB passes. A statement numacol refuses ends the file
 * for it, as the runner does, so a missing feature shows as the queries it costs.
 * <p>
 * CI runs {@link #QUICK}: select1, evidence/, and the first {@value #QUICK_QUERIES} queries of
 * one file of each index/ and random/ directory. {@code -Dslt=all} runs select1-5, evidence/ and
 * the samples whole ({@code -Dslt.file=true}: each on a file database); {@code -Dslt=PATH,PATH} runs those files (paths as in the jar, under
 * {@code test/}). The per-group pass counts of both engines are printed at the end.
 */
class SqlLogicTest {
    /** Queries kept of each sample file in the quick run: the statements before them all run. */
    static final int QUICK_QUERIES = 250;

    /** One file of each index/ and random/ directory: a fixed sample, not chosen by results. */
    static final List<String> SAMPLES = List.of(
            "index/between/10/slt_good_0.test", "index/commute/10/slt_good_0.test",
            "index/delete/10/slt_good_0.test", "index/in/10/slt_good_0.test",
            "index/orderby/10/slt_good_0.test", "index/orderby_nosort/10/slt_good_0.test",
            "index/random/10/slt_good_0.test", "index/view/10/slt_good_1.test", // view/10/slt_good_0 is empty
            "random/aggregates/slt_good_0.test", "random/expr/slt_good_0.test",
            "random/groupby/slt_good_0.test", "random/select/slt_good_0.test");

    static final List<String> EVIDENCE = List.of(
            "evidence/in1.test", "evidence/in2.test", "evidence/slt_lang_aggfunc.test",
            "evidence/slt_lang_createtrigger.test", "evidence/slt_lang_createview.test",
            "evidence/slt_lang_dropindex.test", "evidence/slt_lang_droptable.test",
            "evidence/slt_lang_droptrigger.test", "evidence/slt_lang_dropview.test",
            "evidence/slt_lang_reindex.test", "evidence/slt_lang_replace.test",
            "evidence/slt_lang_update.test");

    static final List<String> QUICK = Stream.of(List.of("select1.test"), EVIDENCE, SAMPLES)
            .flatMap(List::stream).toList();

    /**
     * Files with a statement numacol refuses: the file, and how the first refused statement
     * starts. The queries before it must pass as everywhere; the gap must still be there
     * (remove the entry when it is not). None now: UPDATE and DELETE run.
     */
    static final Map<String, String> KNOWN_GAPS = Map.of();

    private static final String MODE = System.getProperty("slt", "quick");
    /** {@code -Dslt.file=true}: each file runs on a file database of its own (in a new temporary directory), not in memory. */
    private static final boolean FILE = Boolean.getBoolean("slt.file");

    /** Per group (select, evidence, index/between, ...): queries, HSQLDB's passes, numacol's. */
    private static final Map<String, int[]> TOTALS = Collections.synchronizedMap(new TreeMap<>());

    static Stream<String> files() {
        return switch (MODE) {
            case "quick" -> QUICK.stream();
            case "all" -> Stream.of(List.of("select1.test", "select2.test", "select3.test", "select4.test", "select5.test"),
                    EVIDENCE, SAMPLES).flatMap(List::stream);
            default -> Stream.of(MODE.split(",")).map(String::trim);
        };
    }

    @ParameterizedTest
    @MethodSource("files")
    void passesWhatHsqldbPasses(String file) throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(log, true, StandardCharsets.UTF_8);
        OptionsParser.SuppliedOptions options = new OptionsParser(false, out, out).getOptions();
        SltTestFile test = new SltTestFile("test/" + file);
        test.parse(options);
        if (MODE.equals("quick") && SAMPLES.contains(file)) {
            keepQueries(test, QUICK_QUERIES);
        }
        int queries = (int) test.fileContents.stream().filter(o -> o.is(SqlTestQuery.class)).count();

        Recorder hsqldb = new Recorder();
        new HsqldbExecutor(options) {
            @Override
            public boolean validate(SqlTestQuery query, ResultSet rs, SqlTestQueryOutputDescription description,
                                    TestStatistics statistics) throws SQLException, NoSuchAlgorithmException {
                return hsqldb.record(query, statistics, () -> super.validate(query, rs, description, statistics));
            }
        }.execute(test, options);
        Recorder numacol = new Recorder();
        String url = FILE ? "jdbc:numacol:file:" + Files.createTempDirectory("numacol-slt") : "jdbc:numacol:";
        TestStatistics numacolStats = new JdbcExecutor(options, url, "", "") {
            @Override
            public boolean validate(SqlTestQuery query, ResultSet rs, SqlTestQueryOutputDescription description,
                                    TestStatistics statistics) throws SQLException, NoSuchAlgorithmException {
                return numacol.record(query, statistics, () -> super.validate(query, rs, description, statistics));
            }
        }.execute(test, options);

        String group = file.startsWith("select") ? "select" : file.substring(0, file.indexOf('/', file.indexOf('/') + 1) < 0
                ? file.indexOf('/') : file.indexOf('/', file.indexOf('/') + 1));
        TOTALS.merge(group, new int[] {queries, hsqldb.passed.size(), numacol.passed.size()},
                (a, b) -> new int[] {a[0] + b[0], a[1] + b[1], a[2] + b[2]});

        String gap = KNOWN_GAPS.get(file);
        int gapAt = gap == null ? test.fileContents.size() : firstStatement(test, gap);
        List<String> lost = new ArrayList<>();
        for (int i = 0; i < gapAt; i++) {
            if (test.fileContents.get(i) instanceof SqlTestQuery q && hsqldb.passed.containsKey(q)
                    && !numacol.passed.containsKey(q)) {
                lost.add(q.getQuery());
            }
        }
        if (gap != null) {
            assertThat(gapAt).as("%s: no statement starts with %s", file, gap).isLessThan(test.fileContents.size());
            assertThat(numacol.passed.size()).as("%s passes past its %s: remove it from KNOWN_GAPS", file, gap)
                    .isLessThan(hsqldb.passed.size());
        }
        if (!lost.isEmpty()) {
            numacolStats.printStatistics(out);
        }
        String why = log.toString(StandardCharsets.UTF_8);
        assertThat(lost).as("%s: queries HSQLDB passes and numacol does not (%d of %d; numacol %d, HSQLDB %d passed)%n%s",
                        file, lost.size(), queries, numacol.passed.size(), hsqldb.passed.size(),
                        why.length() > 6000 ? why.substring(0, 6000) + "..." : why)
                .isEmpty();
    }

    @AfterAll
    static void printTotals() {
        StringBuilder b = new StringBuilder(String.format("sqllogictest (%s): group, queries, HSQLDB passed, numacol passed%n", MODE));
        TOTALS.forEach((group, t) -> b.append(String.format("  %-28s %7d %7d %7d%n", group, t[0], t[1], t[2])));
        System.out.print(b);
    }

    private static int firstStatement(SltTestFile test, String prefix) {
        for (int i = 0; i < test.fileContents.size(); i++) {
            if (test.fileContents.get(i) instanceof SltSqlStatement st
                    && st.statement.toUpperCase(Locale.ROOT).startsWith(prefix)) {
                return i;
            }
        }
        return test.fileContents.size();
    }

    /** Keeps the statements and the first {@code n} queries; what comes after them is dropped. */
    private static void keepQueries(SltTestFile test, int n) {
        int seen = 0;
        for (int i = 0; i < test.fileContents.size(); i++) {
            if (test.fileContents.get(i).is(SqlTestQuery.class) && ++seen > n) {
                test.fileContents.subList(i, test.fileContents.size()).clear();
                return;
            }
        }
    }

    /** The queries an executor validated and passed (by identity: a file may repeat a query's text). */
    private static final class Recorder {
        final IdentityHashMap<SqlTestQuery, Boolean> passed = new IdentityHashMap<>();

        interface Validation {
            boolean run() throws SQLException, NoSuchAlgorithmException;
        }

        boolean record(SqlTestQuery query, TestStatistics statistics, Validation validation)
                throws SQLException, NoSuchAlgorithmException {
            int before = statistics.getPassedTestCount();
            boolean stop = validation.run();
            if (statistics.getPassedTestCount() > before) {
                passed.put(query, Boolean.TRUE);
            }
            return stop;
        }
    }
}
