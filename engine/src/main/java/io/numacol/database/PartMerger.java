package io.numacol.database;

import io.numacol.scheduler.Affinity;
import io.numacol.scheduler.Statement;
import io.numacol.scheduler.TaskClass;
import io.numacol.storage.PartBuilder;
import io.numacol.storage.Partitioning;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSnapshot;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * numacol's delta merge. Every flush publishes its own parts, so a JDBC tool inserting in
 * batches of 10k rows leaves a hundred parts per million rows, and each costs scans a
 * dictionary and a task. After a flush that leaves a table with small parts (under half of
 * {@code rowsPerPart}) to merge, a background task of the lowest priority rebuilds some of them
 * into one part of up to {@code rowsPerPart} rows and swaps it in at once with
 * {@link Table#replaceParts}: a reader sees the small parts or the merged one, never both or
 * neither, and the small parts are freed once their last reader lets go. A part with at least
 * {@link #COMPACT_DELETED_SHARE} of its rows deleted is rebuilt alone, without them.
 *
 * <p>Background merges are tiered, as a log-structured merge tree's are: a part's tier is the
 * base-{@value #FAN} logarithm of its rows, and {@value #FAN} parts of one tier merge into one of
 * the next. Merging each new small part into the one grown so far would rebuild that part again
 * for every flush: the rows of a load in batches, or of single-row UPDATEs (each publishes a part
 * of one row), were rebuilt hundreds of times, and in a file database written to a part file each
 * time. Tiered, a row is rebuilt once per tier it passes, and a table holds at most
 * {@value #FAN} - 1 small parts per tier meanwhile. {@link #mergeAll} ({@code Database.mergeParts}) still
 * fills parts up to {@code rowsPerPart}.
 */
final class PartMerger {
    private static final Logger LOG = Logger.getLogger(PartMerger.class.getName());

    private final Database database;
    /** Tables a merge task is working on: at most one per table. */
    private final Set<Table> merging = ConcurrentHashMap.newKeySet();
    /** One merge of a table at a time, background or not: two would pick the same parts and one would lose its work. */
    private final Map<Table, ReentrantLock> locks = new WeakHashMap<>();
    /** Tests stop background merges to count parts; {@link #mergeAll} still works. */
    private volatile boolean paused;

    PartMerger(Database database) {
        this.database = database;
    }

    /**
     * After a flush into {@code table}, or a DELETE or UPDATE: starts a background merge if it has
     * small parts to merge or parts to compact.
     */
    void afterFlush(Table table) {
        if (paused || database.isClosed() || !mergeable(table.parts()) || !merging.add(table)) {
            return;
        }
        try {
            Statement statement = database.scheduler().newStatement(Statement.MIN_PRIORITY);
            statement.newTaskGroup().submit(context -> mergeInBackground(table), Affinity.none(), TaskClass.OTHER);
        } catch (RuntimeException e) {
            merging.remove(table); // the database is closing: nothing to merge into
        }
    }

    void pause() {
        paused = true;
    }

    void resume() {
        paused = false;
    }

    private void mergeInBackground(Table table) {
        boolean again;
        do {
            try {
                while (!database.isClosed() && mergeOnce(table, true)) {
                    // until no tier has enough small parts to merge
                }
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "merging the parts of table " + table.name() + " failed; they stay as they are", e);
                return;
            } catch (Error e) {
                // Nobody awaits a background merge: said here, or lost in its statement.
                LOG.log(Level.SEVERE, "merging the parts of table " + table.name() + " failed; they stay as they are", e);
                throw e;
            } finally {
                merging.remove(table);
            }
            // a flush between the last pass and the removal found the table taken: look again; but
            // not while an UPDATE or DELETE holds the table: it replaces the parts, and its part
            // builds need the workers this merge would keep busy building merges it cannot swap in
            again = !database.isClosed() && !table.writesLocked() && mergeable(table.parts()) && merging.add(table);
        } while (again);
    }

    /** Rows written into merged parts so far: what merging costs, against the rows loaded. */
    private final LongAdder rebuiltRows = new LongAdder();

    long rebuiltRows() {
        return rebuiltRows.sum();
    }

    /** Merges as the background task does (tiers of {@value #FAN} parts) until nothing is left to; returns the merges made. */
    int mergeTiers(Table table) {
        return mergeUntilDone(table, true);
    }

    /** Merges small parts until none are left to merge; returns how many merged parts were made. */
    int mergeAll(Table table) {
        return mergeUntilDone(table, false);
    }

    private int mergeUntilDone(Table table, boolean tiered) {
        int merged = 0;
        while (mergeOnce(table, tiered)) {
            merged++;
        }
        return merged;
    }

    /**
     * Runs {@code action} while no merge of {@code table} runs (waiting for one under way), and
     * none waits for the table's holder: a pending merge is dropped, since it was built for the
     * parts and placement the action is about to change.
     */
    void whileNotMerging(Table table, Runnable action) {
        ReentrantLock lock = lockOf(table);
        lock.lock();
        try {
            table.discardPendingMerge();
            action.run();
        } finally {
            lock.unlock();
        }
    }

    private ReentrantLock lockOf(Table table) {
        synchronized (locks) {
            return locks.computeIfAbsent(table, t -> new ReentrantLock());
        }
    }

    /**
     * Rebuilds some of the table's small parts as one part of at most {@code rowsPerPart} rows
     * and swaps it in. False when fewer than two small parts are left, or when the table changed
     * under the merge (dropped, or its parts replaced meanwhile): then nothing changes.
     */
    boolean mergeOnce(Table table) {
        return mergeOnce(table, false);
    }

    /** {@link #mergeOnce(Table)}, of {@value #FAN} small parts of one tier when {@code tiered}. */
    private boolean mergeOnce(Table table, boolean tiered) {
        ReentrantLock lock = lockOf(table);
        lock.lock();
        try {
            return mergeOnceLocked(table, tiered);
        } finally {
            lock.unlock();
        }
    }

    /** Parts of one tier that a background merge makes one part of; a tier spans a factor of this in rows. */
    static final int FAN = 8;

    /** The tier of a part of {@code rows} live rows: the base-{@value #FAN} logarithm. */
    static int tier(long rows) {
        return (63 - Long.numberOfLeadingZeros(Math.max(1, rows))) / Integer.numberOfTrailingZeros(FAN);
    }

    /**
     * The parts of {@code same} (small parts of one partition, in the table's order) to merge
     * into one of at most {@code rowsPerPart} rows: with {@code tiered}, those of the lowest tier
     * that has {@value #FAN} of them; else as many as fit, in order. Fewer than two: none.
     */
    private static List<TablePart> choose(List<TablePart> same, int rowsPerPart, boolean tiered) {
        List<TablePart> candidates = same;
        if (tiered) {
            Map<Integer, List<TablePart>> byTier = new TreeMap<>();
            for (TablePart p : same) {
                byTier.computeIfAbsent(tier(p.liveRowCount()), t -> new ArrayList<>()).add(p);
            }
            candidates = byTier.values().stream().filter(parts -> parts.size() >= FAN).findFirst().orElse(List.of());
        }
        List<TablePart> fit = new ArrayList<>();
        long rows = 0;
        for (TablePart p : candidates) {
            if (rows + p.liveRowCount() <= rowsPerPart && (!tiered || fit.size() < FAN)) {
                fit.add(p);
                rows += p.liveRowCount();
            }
        }
        return fit.size() >= 2 ? fit : List.of();
    }

    private boolean mergeOnceLocked(Table table, boolean tiered) {
        if (table.mergePending() || table.isDropped()) {
            return false; // the last merge waits to be swapped in (this one would read the same parts), or gone
        }
        int rowsPerPart = database.config().rowsPerPart();
        try (TableSnapshot snapshot = table.snapshot()) {
            List<TablePart> chosen = List.of();
            for (List<TablePart> same : small(snapshot.parts()).values()) {
                chosen = choose(same, rowsPerPart, tiered);
                if (!chosen.isEmpty()) {
                    break;
                }
            }
            if (chosen.size() < 2) {
                TablePart worn = snapshot.parts().stream().filter(PartMerger::compactable).findFirst().orElse(null);
                if (worn == null) {
                    return false;
                }
                chosen = List.of(worn);
            }
            TablePart merged = null;
            if (chosen.stream().anyMatch(p -> p.liveRowCount() > 0)) {
                PartBuilder builder = table.newPart();
                chosen.forEach(builder::appendPart); // deleted rows stay behind, the others keep their order
                merged = builder.build(database.placements().newPartPlacement(table, chosen.getFirst()), false);
                rebuiltRows.add(merged.rowCount());
            }
            // swapped in now, or by the UPDATE or DELETE holding the table as it lets go (no wait on a
            // worker); an open transaction's deletions follow their rows into the merged part, and rows
            // deleted meanwhile stay deleted there. The table frees the merged part if it is not swapped in
            return table.tryMergeParts(chosen, merged);
        }
    }

    /**
     * The small parts by partition: parts of two partitions (or of a PP table and of none) never
     * merge, so that every part of a PP table stays of one partition.
     */
    private Map<PartitionOf, List<TablePart>> small(List<TablePart> parts) {
        int limit = database.config().rowsPerPart() / 2;
        Map<PartitionOf, List<TablePart>> byPartition = new LinkedHashMap<>();
        for (TablePart p : parts) {
            if (p.liveRowCount() < limit) {
                byPartition.computeIfAbsent(new PartitionOf(p.partitioning(), p.partition()), k -> new ArrayList<>()).add(p);
            }
        }
        return byPartition;
    }

    private record PartitionOf(Partitioning partitioning, int partition) {
    }

    /** Whether some partition has a tier of {@value #FAN} small parts, or some part many deleted rows. */
    private boolean mergeable(List<TablePart> parts) {
        int rowsPerPart = database.config().rowsPerPart();
        return small(parts).values().stream().anyMatch(same -> same.size() >= FAN && !choose(same, rowsPerPart, true).isEmpty())
                || parts.stream().anyMatch(PartMerger::compactable);
    }

    /**
     * The share of a part's rows deleted from which a merge rebuilds it without them: below it,
     * scans skip the deleted rows (a word of the deleted set per 64 rows) more cheaply than the
     * rebuild costs; a part with every row deleted is simply dropped.
     */
    static final double COMPACT_DELETED_SHARE = 0.2;

    private static boolean compactable(TablePart part) {
        return part.deleted().count() > 0 && part.deleted().count() >= COMPACT_DELETED_SHARE * part.rowCount();
    }
}
