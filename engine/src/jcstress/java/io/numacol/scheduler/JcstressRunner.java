package io.numacol.scheduler;

import org.openjdk.jcstress.JCStress;
import org.openjdk.jcstress.Options;
import org.openjdk.jcstress.infra.Status;
import org.openjdk.jcstress.infra.collectors.DiskReadCollector;
import org.openjdk.jcstress.infra.collectors.InProcessCollector;
import org.openjdk.jcstress.infra.collectors.TestResult;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs jcstress as its {@code Main} does (same arguments), which ends its report by throwing when
 * a test had a forbidden or unknown outcome or an error; then fails too when no test ran (a
 * filter that matches nothing passes in jcstress) or a result is not graded a pass, and prints
 * each test's outcome totals over all the VM configurations it ran in, for the build log.
 */
public final class JcstressRunner {
    private JcstressRunner() {
    }

    public static void main(String[] args) throws Exception {
        Options options = new Options(args);
        if (!options.parse()) {
            System.exit(2);
        }
        new JCStress(options).run();
        if (!Files.exists(Path.of(options.getResultFile()))) {
            fail(List.of("no jcstress test ran")); // jcstress writes no results when its filter matched nothing
        }

        InProcessCollector results = new InProcessCollector();
        DiskReadCollector reader = new DiskReadCollector(options.getResultFile(), results);
        try {
            reader.dump();
        } finally {
            reader.close();
        }
        List<String> failed = new ArrayList<>();
        // Per test, each outcome's count over every VM configuration and compilation mode it ran in.
        Map<String, Map<String, Long>> outcomes = new TreeMap<>();
        for (TestResult r : results.getTestResults()) {
            Map<String, Long> counts = outcomes.computeIfAbsent(r.getName(), name -> new TreeMap<>());
            for (String state : r.getStateKeys()) {
                counts.merge(state, r.getCount(state), Long::sum);
            }
            if (r.status() != Status.NORMAL || !r.grading().isPassed) {
                List<String> why = new ArrayList<>(r.grading().failureMessages);
                why.addAll(r.getMessages());
                failed.add(r.getName() + " (" + r.status() + "): " + String.join("; ", why));
            }
        }
        outcomes.forEach((test, counts) -> {
            System.out.println(test);
            counts.forEach((state, count) -> System.out.printf("  %-20s %,15d%n", state, count));
        });
        if (results.getTestResults().isEmpty()) {
            failed.add("no jcstress test ran");
        }
        if (!failed.isEmpty()) {
            fail(failed);
        }
        System.out.println("jcstress passed: " + results.getTestResults().size() + " test runs");
    }

    private static void fail(List<String> why) {
        System.err.println("jcstress failed:");
        why.forEach(w -> System.err.println("  " + w));
        System.exit(1);
    }
}
