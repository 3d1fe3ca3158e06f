package io.numacol.bench;

import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
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
 */
public final class BenchMain {
    static final String JVM_OPTIONS = "numacol-jvm.options";

    private BenchMain() {
    }

    public static void main(String[] args) throws RunnerException {
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
                org.openjdk.jmh.Main.main(args);
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
        TpchBenchmark.printComparison(new Runner(options).run());
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
