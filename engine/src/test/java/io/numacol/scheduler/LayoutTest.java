package io.numacol.scheduler;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scheduler's hot fields sit alone on their cache lines in the layout this JVM gives them
 * (JOL's field offsets): at least {@link #CLEAR} bytes of padding before and after them in their
 * object, and no other field within that distance. Padding of longs failed this on JDK 25: the
 * field of a subclass filled the 4-byte gap after the object header, at offset 12, ahead of the
 * padding.
 */
class LayoutTest {
    /** Two 64-byte lines, as the adjacent-line prefetcher pulls them in pairs. */
    private static final int CLEAR = 128;
    private static final Pattern PADDING = Pattern.compile("[pq]\\d{3}");

    record Padded(Class<?> type, Set<String> hot) {
        @Override
        public String toString() {
            return type.getSimpleName();
        }
    }

    static Stream<Padded> padded() throws ClassNotFoundException {
        return Stream.of(
                new Padded(PaddedCounter.class, Set.of("value")),
                new Padded(Class.forName("io.numacol.scheduler.Inbox$Stripe"), Set.of("head")),
                new Padded(WorkerStats.class, Set.of("tasksRun", "stolenLocal", "stolenRemote", "busyNanos", "busySince", "binds", "unbinds")),
                new Padded(DrainCounters.class, Set.of("taken", "last")));
    }

    @ParameterizedTest
    @MethodSource("padded")
    void hotFieldsHaveTheirLinesToThemselves(Padded padded) {
        ClassLayout layout = ClassLayout.parseClass(padded.type());
        List<FieldLayout> fields = List.copyOf(layout.fields());
        List<FieldLayout> hot = fields.stream().filter(f -> padded.hot().contains(f.name())).toList();
        assertThat(hot).as("%s's hot fields", padded).hasSize(padded.hot().size());
        long first = hot.stream().mapToLong(FieldLayout::offset).min().orElseThrow();
        long end = hot.stream().mapToLong(f -> f.offset() + f.size()).max().orElseThrow();
        assertThat(first).as("%s: padding before the hot fields\n%s", padded, layout.toPrintable()).isGreaterThanOrEqualTo(CLEAR);
        assertThat(layout.instanceSize() - end).as("%s: padding after the hot fields\n%s", padded, layout.toPrintable())
                .isGreaterThanOrEqualTo(CLEAR);
        for (FieldLayout f : fields) {
            if (padded.hot().contains(f.name()) || PADDING.matcher(f.name()).matches()) {
                continue;
            }
            boolean near = f.offset() + f.size() > first - CLEAR && f.offset() < end + CLEAR;
            assertThat(near).as("%s: field %s at %d shares a line with the hot fields at %d..%d", padded, f.name(), f.offset(), first, end)
                    .isFalse();
        }
    }

    /** The queue flags every poll reads are not in the object the per-poll counters are written in. */
    @Test
    void aGroupsQueueFlagsAreApartFromItsPerPollCounters() {
        ClassLayout group = ClassLayout.parseClass(WorkerGroup.class);
        List<String> names = group.fields().stream().map(FieldLayout::name).toList();
        assertThat(names).contains("hasStealable", "hasHard", "drain").doesNotContain("takenSinceDrain", "lastDrain", "taken", "last");
        assertThat(group.fields().stream().filter(f -> f.name().equals("drain")).findFirst().orElseThrow().typeClass())
                .isEqualTo(DrainCounters.class.getName());
    }
}
