package io.numacol.storage.types;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DateCodecTest extends TypeCodecContract {
    @Override
    ColumnType type() {
        return ColumnType.date();
    }

    @Override
    Class<? extends TypeCodec> codecClass() {
        return DateCodec.class;
    }

    @Override
    List<Object> samples() {
        return List.of(LocalDate.of(1, 1, 1), LocalDate.of(1969, 12, 31), LocalDate.of(1970, 1, 1), LocalDate.of(1998, 12, 1),
                LocalDate.of(2024, 2, 29), LocalDate.of(9999, 12, 31));
    }

    @Override
    List<Conversion> conversions() {
        LocalDate day = LocalDate.of(1998, 12, 1);
        return List.of(new Conversion(java.sql.Date.valueOf(day), day), new Conversion("1998-12-01", day));
    }

    @Override
    List<Object> rejected() {
        @SuppressWarnings("JavaUtilDate") java.util.Date legacy = new java.util.Date(0); // the legacy type, refused by name
        return List.of(19000, legacy, LocalDate.of(2024, 1, 1).atStartOfDay(), "2023-02-29", "20240101", "");
    }

    @Override
    List<Object> invalidStored() {
        return List.of(Long.MAX_VALUE);
    }

    @Override
    Object randomValue(Random random) {
        return LocalDate.ofEpochDay(random.nextLong(LocalDate.of(1, 1, 1).toEpochDay(), LocalDate.of(9999, 12, 31).toEpochDay() + 1));
    }

    @Override
    Comparator<Object> sqlOrder() {
        return natural();
    }

    @ParameterizedTest
    @ValueSource(strings = {"2023-02-29", "2024-02-30", "2024-13-01", "2024-00-10", "20240101", "1998-12-1", "yesterday", ""})
    void rejectsInvalidIsoStrings(String value) {
        assertThatThrownBy(() -> type().toLong(value))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("'" + value + "' is not a valid DATE (expected yyyy-mm-dd)");
    }

    @Test
    void storesTheEpochDayAndChecksComputedDaysAgainstItsYears() {
        assertThat(type().toLong("1970-01-01")).isZero();
        assertThat(type().toLong("1969-12-31")).isEqualTo(-1);
        assertThat(DateCodec.inRange(LocalDate.of(9999, 12, 31).toEpochDay())).isEqualTo(2_932_896L);
        assertThatThrownBy(() -> DateCodec.inRange(2_932_897L)).isInstanceOf(DateTimeException.class).hasMessageContaining("10000-01-01");
        assertThat(DateCodec.isEpochDay(-719_163L)).isFalse();
    }
}
