package io.numacol.bench;

import org.openjdk.jmh.Main;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The benchmarks jar's main: JMH's own command line, plus numacol's JVM flags (the
 * {@code numacol-jvm.options} resource: native access, the Vector API module) appended to every
 * fork's JVM arguments. Start it with the same flags when running in-process ({@code -f 0}):
 * {@code java $(cat native/target/classes/numacol-jvm.options) -jar jmh/target/benchmarks.jar ScanBenchmark}.
 * For {@link ConcurrentBenchmark} alone it runs JMH once per {@code clients} value with that many
 * threads; {@code PlacerTimeline} as the first argument runs {@link PlacerTimeline} instead, and
 * {@code StopLatency} {@link StopLatency}, {@code ColdStart} {@link ColdStart}, {@code TpchSession}
 * {@link TpchSession}.
 */
public final class BenchMain {
    static final String JVM_OPTIONS = "numacol-jvm.options";

    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("PlacerTimeline")) { // a timeline, not a JMH benchmark
            PlacerTimeline.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (args.length > 0 && args[0].equals("StopLatency")) { // latencies of single events, not a JMH benchmark
            StopLatency.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (args.length > 0 && args[0].equals("TpchSession")) { // a session's runs, first and best, not a JMH benchmark
            TpchSession.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (args.length > 0 && args[0].equals("ColdStart")) { // fresh JVMs, one run each, not a JMH benchmark
            ColdStart.main(Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        CommandLineOptions commandLine;
        try {
            commandLine = new CommandLineOptions(args);
        } catch (CommandLineOptionException e) {
            System.err.println("Error parsing command line: " + e.getMessage());
            System.exit(1);
            return;
        }
        if (commandLine.shouldHelp() || commandLine.shouldList() || commandLine.shouldListWithParams()
                || commandLine.shouldListProfilers() || commandLine.shouldListResultFormats()) {
            // JMH's own main answers these; hand over so they behave exactly as usual.
            try {
                Main.main(args);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return;
        }
        List<String> jvmArgs = new ArrayList<>(numacolJvmArgs());
        if (commandLine.getJvmArgsAppend().hasValue()) {
            jvmArgs.addAll(commandLine.getJvmArgsAppend().get());
        }
        Options options = new OptionsBuilder().parent(commandLine).jvmArgsAppend(jvmArgs.toArray(String[]::new)).build();
        List<RunResult> results = new ArrayList<>();
        if (onlyConcurrent(commandLine.getIncludes())) {
            // JMH's thread count is not a parameter: one run per client count, as many threads.
            List<String> clients = commandLine.getParameter("clients").hasValue()
                    ? List.copyOf(commandLine.getParameter("clients").get()) : defaultClients();
            for (String n : clients) {
                results.addAll(new Runner(new OptionsBuilder().parent(options).threads(Integer.parseInt(n.trim()))
                        .param("clients", n.trim()).build()).run());
            }
        } else {
            results.addAll(new Runner(options).run());
        }
        TpchBenchmark.printComparison(results);
        ConcurrentBenchmark.printComparison(results);
    }

    /** Whether the benchmarks asked for are {@link ConcurrentBenchmark}'s only. */
    private static boolean onlyConcurrent(List<String> includes) {
        return !includes.isEmpty() && includes.stream().allMatch(i -> i.contains(ConcurrentBenchmark.class.getSimpleName()));
    }

    private static List<String> defaultClients() {
        try {
            return List.of(ConcurrentBenchmark.class.getField("clients").getAnnotation(Param.class).value());
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The flags of the {@value #JVM_OPTIONS} resource, split at whitespace. */
    static List<String> numacolJvmArgs() {
        try (InputStream in = BenchMain.class.getClassLoader().getResourceAsStream(JVM_OPTIONS)) {
            if (in == null) {
                throw new IllegalStateException("resource " + JVM_OPTIONS + " is missing from the class path");
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
            if (text.contains("${")) {
                throw new IllegalStateException("resource " + JVM_OPTIONS + " was not filtered by Maven: '" + text + "'");
            }
            return text.isEmpty() ? List.of() : Arrays.asList(text.split("\\s+"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read resource " + JVM_OPTIONS, e);
        }
    }
}
