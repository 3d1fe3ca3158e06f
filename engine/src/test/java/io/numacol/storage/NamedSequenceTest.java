package io.numacol.storage;

import io.numacol.memory.NumaMemory;
import io.numacol.storage.types.ColumnType;
import io.numacol.topology.Topology;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A catalog sequence counts within its bounds, wraps or stops at them, and logs its counter ahead of the numbers it gives. */
class NamedSequenceTest {
    private final Catalog catalog = new Catalog(NumaMemory.create(Topology.fake(1)));

    private NamedSequence create(SequenceDef def) {
        return catalog.createSequence(def, new NamedSequence.Position(def.start(), false));
    }

    @Test
    void countsUpFromOneByDefaultAndDownFromMinusOne() {
        NamedSequence up = create(SequenceDef.withDefaults("main", "up", "BIGINT", null, null, null, null, false));
        NamedSequence down = create(SequenceDef.withDefaults("main", "down", "INTEGER", null, -2L, null, null, false));
        assertThat(List.of(catalog.nextval(up), catalog.nextval(up), catalog.nextval(down), catalog.nextval(down)))
                .containsExactly(1L, 2L, -1L, -3L);
        assertThat(down.def().minValue()).isEqualTo(Integer.MIN_VALUE);
    }

    @Test
    void stopsPastItsMaximumWithoutCycleAndWrapsWithIt() {
        NamedSequence stops = create(SequenceDef.withDefaults("main", "stops", "SMALLINT", 32_766L, null, null, null, false));
        assertThat(catalog.nextval(stops)).isEqualTo(32_766);
        assertThat(catalog.nextval(stops)).isEqualTo(32_767);
        assertThatThrownBy(() -> catalog.nextval(stops)).isInstanceOf(SequenceLimitException.class)
                .hasMessage("nextval: reached maximum value of sequence \"stops\" (32767)");
        NamedSequence wraps = create(new SequenceDef("main", "wraps", "BIGINT", 2, 1, 1, 3, true));
        List<Long> got = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            got.add(catalog.nextval(wraps));
        }
        assertThat(got).containsExactly(2L, 3L, 1L, 2L, 3L);
        NamedSequence widest = create(new SequenceDef("main", "widest", "BIGINT", Long.MAX_VALUE - 1, 1, 1, Long.MAX_VALUE, false));
        assertThat(catalog.nextval(widest)).isEqualTo(Long.MAX_VALUE - 1);
        assertThat(catalog.nextval(widest)).isEqualTo(Long.MAX_VALUE);
        assertThatThrownBy(() -> catalog.nextval(widest)).isInstanceOf(SequenceLimitException.class);
    }

    @Test
    void theLoggedCounterIsAlwaysAheadOfEveryNumberGiven() {
        NamedSequence s = create(SequenceDef.withDefaults("main", "s", "BIGINT", null, 3L, null, null, false));
        for (int i = 0; i < 100; i++) {
            long n = catalog.nextval(s);
            assertThat(s.reserved().next()).isGreaterThan(n).isLessThanOrEqualTo(n + 3L * NamedSequence.RESERVE);
        }
        NamedSequence near = create(new SequenceDef("main", "near", "INTEGER", 1, 1, 1, 5, false));
        catalog.nextval(near);
        assertThat(near.reserved()).isEqualTo(new NamedSequence.Position(5, true)); // past the end: a crash leaves none to give
    }

    @Test
    void setvalMakesTheNextNumberTheOneAfterItWithinTheBounds() {
        NamedSequence s = create(new SequenceDef("main", "s", "BIGINT", 1, 10, 1, 1_000, false));
        catalog.setval(s, 500);
        assertThat(catalog.nextval(s)).isEqualTo(510);
        assertThatThrownBy(() -> catalog.setval(s, 1_001)).hasMessageContaining("out of bounds");
    }

    @Test
    void aSequenceSharesTheNameSpaceOfTablesAndIsGoneOnceDropped() {
        NamedSequence s = create(SequenceDef.withDefaults("main", "s", "BIGINT", null, null, null, null, false));
        TableSchema oneColumn = new TableSchema(List.of(new TableSchema.ColumnDef("a", ColumnType.bigint(), true)));
        assertThatThrownBy(() -> catalog.create("S", oneColumn))
                .hasMessageContaining("a sequence named S already exists");
        assertThatThrownBy(() -> create(SequenceDef.withDefaults("main", "S", "BIGINT", null, null, null, null, false)))
                .hasMessageContaining("sequence S already exists");
        catalog.dropSequence("main", "s");
        assertThat(catalog.findSequence("main", "s")).isEmpty();
        assertThatThrownBy(() -> catalog.nextval(s)).hasMessageContaining("does not exist");
        assertThatThrownBy(() -> NamedSequence.byId(s.id())).hasMessageContaining("no longer exists");
    }
}
