package io.numacol.database;

import io.numacol.storage.TableSchema.ColumnDef;
import io.numacol.storage.TableSchema;
import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CsvReaderTest {

    private static List<String> records(String csv, char delimiter) throws IOException {
        CsvReader r = new CsvReader(new StringReader(csv), delimiter);
        List<String> out = new ArrayList<>();
        for (List<String> f; (f = r.next()) != null; ) {
            out.add(r.recordLine() + ":" + f);
        }
        return out;
    }

    @Test
    void rfc4180Fields() throws IOException {
        assertThat(records("a,b\r\n\"x,y\",\"say \"\"hi\"\"\"\n,\"\"\n\"two\nlines\",z", ','))
                .containsExactly("1:[a, b]", "2:[x,y, say \"hi\"]", "3:[null, ]", "4:[two\nlines, z]");
        assertThat(records("1|2|\n", '|')).containsExactly("1:[1, 2, null]");
        assertThat(records("", ',')).isEmpty();
    }

    @Test
    void malformedQuotesNameTheLine() {
        assertThatThrownBy(() -> records("a\n\"open,b\n", ',')).hasMessageContaining("line 2: a quoted field is not closed");
        assertThatThrownBy(() -> records("a\n\"x\"y,b\n", ',')).hasMessageContaining("line 2: unexpected 'y' after a quoted field");
    }

    @Test
    void appendCsvStoresAllOrNothing() {
        try (Database db = Database.open()) {
            db.catalog().create("t", TableSchema.of(
                    new ColumnDef("id", ColumnType.bigint(), false),
                    new ColumnDef("ok", ColumnType.booleanType(), true)));
            assertThatThrownBy(() -> db.appender("t").appendCsv(new StringReader("1,true\n2,maybe\n"), CsvFormat.defaults()))
                    .hasMessageContaining("line 2: column ok: value 'maybe' is not a valid BOOLEAN");
            assertThatThrownBy(() -> db.appender("t").appendCsv(new StringReader("1,true\n,false\n"), CsvFormat.defaults()))
                    .hasMessageContaining("line 2: null value in column \"id\" of relation \"t\" violates not-null constraint (row 2)");
            assertThat(db.catalog().get("t").rowCount()).isZero();
            assertThat(db.appender("t").appendCsv(new StringReader("1,TRUE\n2,\n"), CsvFormat.defaults())).isEqualTo(2);
            assertThat(db.catalog().get("t").rowCount()).isEqualTo(2);
            assertThat(db.catalog().get("t").parts()).hasSize(1);
        }
    }
}
