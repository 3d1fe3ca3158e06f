package io.numacol.jdbc;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.sql.SQLException;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

class QueryFailuresTest {

    @Test
    void aReadOfFreedMemorySaysSoInsteadOfFfmsAlreadyClosed() {
        Arena arena = Arena.ofShared();
        MemorySegment segment = arena.allocate(64);
        arena.close();
        Throwable read = catchThrowable(() -> segment.get(JAVA_LONG, 0));
        assertThat(read).isInstanceOf(IllegalStateException.class);

        SQLException e = QueryFailures.failed(new RuntimeException("statement 7 failed: " + read, read));
        assertThat((Throwable) e).hasMessageContaining("the memory it was reading has been freed").hasMessageNotContaining("Already closed");
        assertThat((Throwable) QueryFailures.failed(new ArithmeticException("/ by zero"))).hasMessage("query failed: / by zero");
    }
}
