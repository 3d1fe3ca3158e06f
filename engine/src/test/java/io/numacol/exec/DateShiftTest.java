package io.numacol.exec;

import io.numacol.storage.types.ColumnType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.LocalDate;

import static org.assertj.core.api.Assertions.assertThat;

/** DATE plus months, then days: a day past the end of the month it lands in is that month's last, as in SQL. */
class DateShiftTest {
    @ParameterizedTest(name = "{0} + {1} months + {2} days = {3}")
    @CsvSource({"2022-01-31, 1, 0, 2022-02-28", "2024-01-31, 1, 0, 2024-02-29", "2024-02-29, 12, 0, 2025-02-28",
            "2022-03-31, -1, 0, 2022-02-28", "2022-03-31, -13, 0, 2021-02-28", "2022-01-31, 1, 1, 2022-03-01",
            "2022-01-15, 0, -20, 2021-12-26", "1970-01-01, -1, 0, 1969-12-01", "2021-12-31, 24, -5, 2023-12-26"})
    void shiftsAsSqlSays(LocalDate date, long months, long days, LocalDate expected) {
        ChunkExpr.DateShift shift = new ChunkExpr.DateShift(0, months, days, ColumnType.date());
        assertThat(LocalDate.ofEpochDay(shift.of(date.toEpochDay()))).isEqualTo(expected);
    }
}
