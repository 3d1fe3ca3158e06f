package io.numacol.calcite.dml;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The ON CONFLICT clause read from a statement's text: what it finds, what it leaves to Calcite, what it refuses. */
class OnConflictParseTest {

    @Test
    void statementsWithoutTheClauseAreLeftAlone() {
        assertThat(OnConflict.parse("insert into t values (1)")).isNull();
        assertThat(OnConflict.parse("select 'on conflict' from t")).isNull();
        assertThat(OnConflict.parse("insert into t values ('x on conflict do nothing') -- on conflict do nothing")).isNull();
        assertThat(OnConflict.parse("insert into t select a.x from a join b on a.id = b.id")).isNull();
        assertThat(OnConflict.parse(null)).isNull();
    }

    @Test
    void doNothingWithAndWithoutATarget() {
        OnConflict c = OnConflict.parse("INSERT INTO main.\"T\" (id, \"Name\") VALUES (?, 'a') ON CONFLICT (id, \"Name\") DO NOTHING;");
        assertThat(c.insert()).isEqualTo("INSERT INTO main.\"T\" (id, \"Name\") VALUES (?, 'a') ");
        assertThat(c.table()).containsExactly("main", "T");
        assertThat(c.alias()).isEqualTo("T");
        assertThat(c.columns()).containsExactly("id", "Name");
        assertThat(c.target()).containsExactly("id", "Name");
        assertThat(c.update()).isFalse();
        OnConflict none = OnConflict.parse("insert into t select * from s on conflict do nothing");
        assertThat(none.insert()).isEqualTo("insert into t select * from s ");
        assertThat(none.target()).isEmpty();
        assertThat(none.constraint()).isNull();
    }

    @Test
    void doUpdateWithAliasAssignmentsAndWhere() {
        OnConflict c = OnConflict.parse("insert into t as x values (1, 2) on conflict on constraint t_pkey "
                + "do update set a = excluded.a + f(x.b, 2), \"B\" = 'p, q' where x.a < 3 and (b, c) = (1, 2)");
        assertThat(c.insert()).isEqualTo("insert into t  values (1, 2) ");
        assertThat(c.alias()).isEqualTo("x");
        assertThat(c.constraint()).isEqualTo("t_pkey");
        assertThat(c.setColumns()).containsExactly("a", "B");
        assertThat(c.setValues()).containsExactly("excluded.a + f(x.b, 2)", "'p, q'");
        assertThat(c.where()).isEqualTo("x.a < 3 and (b, c) = (1, 2)");
    }

    @Test
    void insertOrIgnoreAndOrReplace() {
        OnConflict ignore = OnConflict.parse("insert or ignore into t values (1)");
        assertThat(ignore.insert()).isEqualTo("insert into t values (1)");
        assertThat(ignore.update()).isFalse();
        assertThat(ignore.target()).isEmpty();
        OnConflict replace = OnConflict.parse("INSERT OR REPLACE INTO t AS y (k, v) VALUES (1, 2)");
        assertThat(replace.insert()).isEqualTo("INSERT INTO t  (k, v) VALUES (1, 2)");
        assertThat(replace.replace()).isTrue();
        assertThat(replace.columns()).containsExactly("k", "v");
    }

    @Test
    void malformedClausesSayWhatWasExpected() {
        assertThatThrownBy(() -> OnConflict.parse("insert into t values (1) on conflict (a do nothing"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected )");
        assertThatThrownBy(() -> OnConflict.parse("insert into t values (1) on conflict do update a = 1"))
                .hasMessageContaining("expected SET");
        assertThatThrownBy(() -> OnConflict.parse("insert into t values (1) on conflict do update set a ="))
                .hasMessageContaining("needs a value");
        assertThatThrownBy(() -> OnConflict.parse("insert into t values (1) on conflict do nothing more"))
                .hasMessageContaining("\"more\"");
    }

    @Test
    void qualifyNamesTheExistingRowsColumnsWrittenAlone() {
        Set<String> columns = Set.of("n", "m");
        assertThat(OnConflict.qualify("n + excluded.n + x.m + abs(m) - 'n' + \"n\" + count(1)", columns::contains, "x"))
                .isEqualTo("x.n + excluded.n + x.m + abs(x.m) - 'n' + x.\"n\" + count(1)");
        assertThat(OnConflict.qualify("n(1)", columns::contains, "x")).isEqualTo("n(1)");
        assertThat(List.of(OnConflict.qualify("m", columns::contains, "\"T\""))).containsExactly("\"T\".m");
    }
}
