package io.numacol.exec;

import java.util.List;

/**
 * A plan's rows as they become ready, in batches, as internal Java values (see {@link
 * InternalValues}). Not thread-safe: one consumer. Closing it before the end stops the work
 * still in flight and releases what the rows were read from.
 */
public interface ResultStream extends AutoCloseable {

    /** The next batch of rows, or null once there are no more (then the stream is closed). */
    List<Object[]> next();

    @Override
    void close();

    /** Rows computed whole, handed out as one batch. */
    static ResultStream of(List<Object[]> rows) {
        return new ResultStream() {
            private List<Object[]> left = rows;

            @Override
            public List<Object[]> next() {
                List<Object[]> out = left;
                left = null;
                return out == null || out.isEmpty() ? null : out;
            }

            @Override
            public void close() {
                left = null;
            }
        };
    }
}
