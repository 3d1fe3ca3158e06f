package io.numacol.calcite.dml;

import io.numacol.database.Appender;
import io.numacol.database.Database;
import io.numacol.storage.Table;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The INSERTs of one JDBC batch that Calcite plans entry by entry: while the batch runs, their
 * rows gather in one appender per table instead of being published per entry, so the batch is
 * stored whole by {@link #publish()} or not at all after {@link #discard()}. An INSERT ... SELECT
 * in the batch that reads its own target does not see the rows of earlier entries.
 */
public final class InsertBatch {
    private static final ScopedValue<InsertBatch> CURRENT = ScopedValue.newInstance();

    private final IdentityHashMap<Table, Appender> appenders = new IdentityHashMap<>();

    /** Runs {@code op} with every numacol INSERT it executes, in this thread, appending to this batch. */
    public <R, X extends Throwable> R run(ScopedValue.CallableOp<R, X> op) throws X {
        return ScopedValue.where(CURRENT, this).call(op);
    }

    /** The batch the running INSERT belongs to, or null when it stands alone. */
    static InsertBatch current() {
        return CURRENT.isBound() ? CURRENT.get() : null;
    }

    Appender appender(Database database, Table table) {
        return appenders.computeIfAbsent(table, database::appender);
    }

    /** Makes every row of the batch visible; if that fails, discards what was not yet published. */
    public void publish() {
        List<Appender> all = new ArrayList<>(appenders.values());
        appenders.clear();
        for (int i = 0; i < all.size(); i++) {
            try {
                all.get(i).flush();
            } catch (RuntimeException | Error e) {
                all.subList(i + 1, all.size()).forEach(Appender::discard);
                throw e;
            }
        }
    }

    /** Forgets every row of the batch. */
    public void discard() {
        appenders.values().forEach(Appender::discard);
        appenders.clear();
    }
}
