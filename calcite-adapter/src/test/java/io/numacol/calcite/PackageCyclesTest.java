package io.numacol.calcite;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No two packages of the adapter depend on each other: a newcomer reads a package knowing only the
 * ones below it. The main sources are scanned as text (imports, static imports and fully qualified
 * names in code, comments and string literals left out), which is enough for the adapter's own
 * packages and needs no bytecode tool.
 */
class PackageCyclesTest {
    private static final Path SOURCES = Path.of("src/main/java");

    /** The packages checked: io.numacol.calcite and those below it, and the adapter's other roots. */
    private static final Pattern ADAPTER = Pattern.compile("io\\.numacol\\.(calcite(\\.[a-z]\\w*)*|jdbc|cli|tpch)");

    /** A qualified reference to a class: a package's name followed by a capitalized simple name. */
    private static final Pattern REFERENCE = Pattern.compile("\\b(io\\.numacol(?:\\.[a-z_]\\w*)+)\\.[A-Z]\\w*");

    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern COMMENTS_AND_STRINGS = Pattern.compile("/\\*.*?\\*/|//[^\\n]*|\"(?:\\\\.|[^\"\\\\])*\"", Pattern.DOTALL);

    /**
     * Two-way dependencies allowed to stay, each as "lower <-> higher" with why: none. One that
     * cannot be broken at once is listed here with its reason; taking one away makes the test fail
     * until it leaves this list too, so the list only shrinks.
     */
    private static final Set<String> KNOWN = Set.of();

    @Test
    void noTwoPackagesOfTheAdapterDependOnEachOther() throws IOException {
        Map<String, Set<String>> dependencies = dependencies();
        assertThat(dependencies).as("packages scanned").containsKeys("io.numacol.calcite", "io.numacol.jdbc");
        Set<String> twoWay = new TreeSet<>();
        dependencies.forEach((from, tos) -> {
            for (String to : tos) {
                if (from.compareTo(to) < 0 && dependencies.getOrDefault(to, Set.of()).contains(from)) {
                    twoWay.add(from + " <-> " + to);
                }
            }
        });
        assertThat(twoWay).as("two-way package dependencies").containsExactlyInAnyOrderElementsOf(KNOWN);
    }

    @Test
    void findsAFullyQualifiedReferenceWithoutAnImport() {
        String source = """
                package io.numacol.calcite.ddl;

                import io.numacol.calcite.dml.ModifyTarget;
                // io.numacol.calcite.cache.PlanCache in a comment is no dependency
                class X {
                    Object o = io.numacol.calcite.plan.NumacolPrepare.class;
                    String s = "io.numacol.calcite.rel.NumacolRel";
                }
                """;
        assertThat(references(source)).containsExactlyInAnyOrder("io.numacol.calcite.dml", "io.numacol.calcite.plan");
    }

    /** Each adapter package with the other adapter packages its sources refer to. */
    private static Map<String, Set<String>> dependencies() throws IOException {
        Map<String, Set<String>> dependencies = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file);
                Matcher declared = PACKAGE.matcher(source);
                if (!declared.find() || !ADAPTER.matcher(declared.group(1)).matches()) {
                    continue;
                }
                String from = declared.group(1);
                Set<String> tos = dependencies.computeIfAbsent(from, p -> new TreeSet<>());
                references(source).stream().filter(to -> !to.equals(from) && ADAPTER.matcher(to).matches()).forEach(tos::add);
            }
        }
        return dependencies;
    }

    /** The packages of the classes {@code source} names by their qualified names, in code only. */
    private static Set<String> references(String source) {
        String code = COMMENTS_AND_STRINGS.matcher(source).replaceAll(" ");
        code = PACKAGE.matcher(code).replaceAll(" ");
        Set<String> packages = new TreeSet<>();
        Matcher m = REFERENCE.matcher(code);
        while (m.find()) {
            packages.add(m.group(1));
        }
        return packages;
    }
}
