package org.apache.calcite.jdbc;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.sql.SQLException;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

class NumacolResultSetTest {

    @Test
    void aReadOfFreedMemorySaysSoInsteadOfFfmsAlreadyClosed() {
        Arena arena = Arena.ofShared();
        MemorySegment segment = arena.allocate(64);
        arena.close();
        Throwable read = catchThrowable(() -> segment.get(JAVA_LONG, 0));
        assertThat(read).isInstanceOf(IllegalStateException.class);

        SQLException e = NumacolResultSet.failed(new RuntimeException("statement 7 failed: " + read, read));
        assertThat((Throwable) e).hasMessageContaining("the memory it was reading has been freed").hasMessageNotContaining("Already closed");
        assertThat((Throwable) NumacolResultSet.failed(new ArithmeticException("/ by zero"))).hasMessage("query failed: / by zero");
    }
}
