package io.numacol.calcite;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No two packages of numacol depend on each other (the adapter's, and the engine's and native
 * layer's it builds on): a newcomer reads a package knowing only the ones below it. The main
 * sources are scanned as text (imports, static imports and fully qualified
 * names in code, comments and string literals left out), which is enough for the adapter's own
 * packages and needs no bytecode tool.
 */
class PackageCyclesTest {
    /** The main sources of this module and of the modules below it (tests run in the module's directory). */
    private static final List<Path> SOURCES = List.of(Path.of("src/main/java"), Path.of("../engine/src/main/java"),
            Path.of("../native/src/main/java"));

    /** The packages checked: numacol's own. */
    private static final Pattern NUMACOL = Pattern.compile("io\\.numacol(\\.[a-z]\\w*)+");

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
    void noTwoPackagesDependOnEachOther() throws IOException {
        Map<String, Set<String>> dependencies = dependencies();
        assertThat(dependencies).as("packages scanned").containsKeys("io.numacol.calcite", "io.numacol.jdbc", "io.numacol.exec",
                "io.numacol.storage", "io.numacol.storage.types", "io.numacol.memory");
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
        for (Path root : SOURCES) {
            addDependencies(root, dependencies);
        }
        return dependencies;
    }

    private static void addDependencies(Path root, Map<String, Set<String>> dependencies) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file);
                Matcher declared = PACKAGE.matcher(source);
                if (!declared.find() || !NUMACOL.matcher(declared.group(1)).matches()) {
                    continue;
                }
                String from = declared.group(1);
                Set<String> tos = dependencies.computeIfAbsent(from, p -> new TreeSet<>());
                references(source).stream().filter(to -> !to.equals(from) && NUMACOL.matcher(to).matches()).forEach(tos::add);
            }
        }
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
