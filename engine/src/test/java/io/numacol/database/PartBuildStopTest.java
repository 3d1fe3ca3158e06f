package io.numacol.database;

import io.numacol.storage.ColumnPlacement;
import io.numacol.storage.PartBuilder;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Random;
import java.util.concurrent.CancellationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A part's build stopped part way (its statement was stopped) throws and frees what it built.
 */
class PartBuildStopTest {
    private final Database db = Database.open(DatabaseConfig.defaults().withTopology("fake:2"));

    @AfterEach
    void close() {
        db.close();
        assertThat(db.memory().liveAllocations()).isZero();
    }

    /**
     * A build stopped at its first ask, its second, and so on until one ends: each throws and
     * leaves no allocation behind, and there are asks inside the long loops, not only between
     * the columns (a part of 40,000 rows passes {@link io.numacol.storage.BuildStop#STEPS}
     * twice in each).
     */
    @ParameterizedTest
    @ValueSource(strings = {"strings", "narrow longs", "wide longs", "doubles"})
    void aStoppedBuildFreesWhatItBuilt(String kind) {
        ColumnType type = switch (kind) {
            case "strings" -> ColumnType.varchar(30);
            case "doubles" -> ColumnType.doubleType();
            default -> ColumnType.bigint();
        };
        Table t = db.catalog().create("t", TableSchema.of(new ColumnDef("v", type, true)));
        PartBuilder part = t.newPart();
        Random r = new Random(kind.hashCode());
        int rows = 40_000;
        for (int i = 0; i < rows; i++) {
            Object value = switch (kind) {
                case "strings" -> "value " + r.nextInt(1_000_000);
                case "narrow longs" -> (long) r.nextInt(100_000);
                case "wide longs" -> r.nextLong();
                default -> r.nextDouble();
            };
            part.addRow(i % 97 == 0 ? null : value);
        }
        int allocations = db.memory().liveAllocations();
        int stopAt = 1;
        for (; ; stopAt++) {
            int[] asks = {0};
            int at = stopAt;
            try {
                TablePart built = part.build(c -> ColumnPlacement.onNode(0), true, () -> ++asks[0] == at);
                assertThat(built.rowCount()).isEqualTo(rows);
                built.release();
                break;
            } catch (CancellationException e) {
                assertThat(db.memory().liveAllocations()).as("allocations after a stop at ask %d", at).isEqualTo(allocations);
            }
        }
        assertThat(stopAt - 1).as("asks of a whole build").isGreaterThanOrEqualTo(5);
        assertThat(db.memory().liveAllocations()).isEqualTo(allocations);
    }

    /** A stop that never comes changes nothing: the build that asks is the build that does not. */
    @Test
    void anUnstoppedBuildIsTheSameBuild() {
        Table t = db.catalog().create("t", TableSchema.of(new ColumnDef("v", ColumnType.varchar(10), true)));
        PartBuilder part = t.newPart();
        for (String v : new String[] {"b", null, "a", "b"}) {
            part.addRow(v);
        }
        TablePart built = part.build(c -> ColumnPlacement.onNode(1), false, () -> false);
        try {
            assertThat(built.column(0).value(0)).isEqualTo("b");
            assertThat(built.column(0).value(1)).isNull();
            assertThat(built.column(0).value(2)).isEqualTo("a");
            assertThat(built.column(0).value(3)).isEqualTo("b");
        } finally {
            built.release();
        }
        assertThatThrownBy(() -> part.build(c -> ColumnPlacement.onNode(1), false, () -> true))
                .isInstanceOf(CancellationException.class).hasMessageContaining("stopped");
    }
}
