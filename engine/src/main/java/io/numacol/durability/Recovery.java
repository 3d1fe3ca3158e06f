package io.numacol.durability;

import io.numacol.checkpoint.CatalogImage;
import io.numacol.checkpoint.Manifest;
import io.numacol.checkpoint.PartFile;
import io.numacol.checkpoint.PartRef;
import io.numacol.checkpoint.SequenceEntry;
import io.numacol.checkpoint.TableEntry;
import io.numacol.placement.Placement;
import io.numacol.storage.Catalog;
import io.numacol.storage.Column;
import io.numacol.storage.CommentDef;
import io.numacol.storage.IndexDef;
import io.numacol.storage.NamedSequence;
import io.numacol.storage.Sequence;
import io.numacol.storage.Table;
import io.numacol.storage.TablePart;
import io.numacol.storage.TableSchema;
import io.numacol.storage.ViewDef;
import io.numacol.wal.CommittedTransaction;
import io.numacol.wal.LogRecord;
import io.numacol.wal.LogReplay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Reads a database directory back into an empty database: the manifest's catalog and part files
 * (each part read straight to where its table's placement puts it), then every transaction the
 * log committed after the checkpoint, in commit order. Records of a table the catalog does not
 * have yet (an ALTER fills its new table before the catalog takes it) wait until a logged catalog
 * state brings the table, and are dropped if none does (the ALTER never finished).
 */
final class Recovery {
    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(Recovery.class.getName());

    /** What the store needs to go on from where the files left off. */
    record Outcome(long nextTableId, Map<Table, Long> tableIds, long checkpointLsn, long replayed,
                   List<FileOfPart> partFiles, Map<String, Long> loggedFiles) {
    }

    /** A part file that holds the version of a part that was read back. */
    record FileOfPart(long table, long part, PartRef ref, int deletedCount) {
    }

    private final StoredDatabase database;
    private final Catalog catalog;
    private final Path directory;
    private final Map<Long, Table> byId = new LinkedHashMap<>();
    private final Map<Long, List<List<LogRecord>>> waiting = new HashMap<>();
    private final List<FileOfPart> files = new ArrayList<>();
    private final Map<String, Long> loggedFiles = new HashMap<>();
    private long nextTableId = 1;

    private Recovery(StoredDatabase database, Path directory) {
        this.database = database;
        this.catalog = database.catalog();
        this.directory = directory;
    }

    static Outcome run(StoredDatabase database, Path directory, Path logDirectory) throws IOException {
        java.nio.file.Files.createDirectories(logDirectory); // a new database's
        return read(database, directory, logDirectory);
    }

    /** {@link #run} writing nothing: for a read-only open, which leaves the files as it found them. */
    static Outcome read(StoredDatabase database, Path directory, Path logDirectory) throws IOException {
        Recovery r = new Recovery(database, directory);
        Manifest manifest = Manifest.read(directory).orElse(Manifest.empty());
        r.apply(manifest.catalog(), true);
        long[] replayed = {0};
        LogReplay.replay(logDirectory, manifest.lsn(), txn -> {
            r.apply(txn);
            replayed[0]++;
        });
        r.waiting.clear(); // tables an unfinished ALTER filled: never in the catalog
        r.advanceIdentities();
        Map<Table, Long> ids = new HashMap<>(); // a Table is equal only to itself
        r.byId.forEach((id, t) -> ids.put(t, id));
        long next = r.nextTableId;
        for (long id : r.byId.keySet()) {
            next = Math.max(next, id + 1);
        }
        return new Outcome(next, ids, manifest.lsn(), replayed[0], r.files, r.loggedFiles);
    }

    // ---- the catalog

    /** Makes the catalog what {@code image} says; with {@code withParts}, the tables created get the image's part files. */
    private void apply(CatalogImage image, boolean withParts) {
        nextTableId = Math.max(nextTableId, image.nextTableId());
        for (String schema : image.schemas()) {
            if (catalog.findSchema(schema).isEmpty()) {
                catalog.createSchema(schema);
            }
        }
        Map<Long, TableEntry> entries = new HashMap<>();
        image.tables().forEach(e -> entries.put(e.id(), e));
        for (ViewDef v : List.copyOf(catalog.views())) {
            if (!image.views().contains(v)) {
                catalog.dropView(v.schema(), v.name());
            }
        }
        for (IndexDef ix : List.copyOf(catalog.indexes())) {
            if (!image.indexes().contains(ix)) {
                catalog.dropIndex(ix.schema(), ix.name());
            }
        }
        for (Map.Entry<Long, Table> t : List.copyOf(byId.entrySet())) {
            if (!entries.containsKey(t.getKey())) {
                database.dropTable(t.getValue());
                byId.remove(t.getKey());
            }
        }
        for (TableEntry entry : image.tables()) {
            Table table = byId.get(entry.id());
            Placement placement = placementOf(entry);
            if (table == null) {
                table = catalog.create(entry.schemaName(), entry.name(), entry.schema());
                byId.put(entry.id(), table);
                database.restorePlacement(table, placement, entry.partitioning());
                if (withParts) {
                    readParts(entry, table);
                }
                List<List<LogRecord>> early = waiting.remove(entry.id());
                if (early != null) {
                    for (List<LogRecord> records : early) {
                        applyChange(table, records);
                    }
                }
            } else {
                database.restorePlacement(table, placement, entry.partitioning());
                advanceFrom(table.schema(), entry.schema());
            }
        }
        for (ViewDef v : image.views()) {
            if (!catalog.views().contains(v)) {
                catalog.createView(v, true);
            }
        }
        for (IndexDef ix : image.indexes()) {
            if (!catalog.indexes().contains(ix)) {
                catalog.createIndex(ix.name(), catalog.get(ix.schema(), ix.table()), ix.columns(), ix.unique());
            }
        }
        applySequences(image);
        for (CommentDef c : List.copyOf(catalog.comments())) {
            if (!image.comments().contains(c)) {
                catalog.find(c.schema(), c.table()).ifPresent(t -> catalog.comment(t, c.column(), null));
            }
        }
        for (CommentDef c : image.comments()) {
            if (!catalog.comments().contains(c)) {
                catalog.comment(catalog.get(c.schema(), c.table()), c.column(), c.text());
            }
        }
        for (String schema : List.copyOf(catalog.schemas())) {
            if (!schema.equalsIgnoreCase(Catalog.MAIN) && image.schemas().stream().noneMatch(schema::equalsIgnoreCase)) {
                catalog.dropSchema(schema);
            }
        }
    }

    /**
     * Creates the image's sequences the catalog lacks, drops those it no longer has (or has
     * anew, declared otherwise), and puts every counter where the image does: images are logged
     * in the order their sequences moved, so a later one is never behind but where a setval put
     * it back, and Sequence#advancePast's "never back" would not do.
     */
    private void applySequences(CatalogImage image) {
        for (NamedSequence q : List.copyOf(catalog.sequences())) {
            if (image.sequences().stream().noneMatch(e -> e.def().equals(q.def()))) {
                catalog.dropSequence(q.def().schema(), q.def().name());
            }
        }
        for (SequenceEntry e : image.sequences()) {
            NamedSequence q = catalog.findSequence(e.def().schema(), e.def().name()).orElse(null);
            if (q == null) {
                catalog.createSequence(e.def(), e.position());
            } else {
                catalog.restoreSequence(q, e.position());
            }
        }
    }

    /**
     * The table's recorded placement, or the default where this machine (or this {@code topology})
     * lacks a node it names: the data opens anywhere, placed as well as the nodes allow.
     */
    private Placement placementOf(TableEntry entry) {
        if (entry.placement().isEmpty()) {
            return null;
        }
        Placement placement = Placement.parse(entry.placement());
        try {
            placement.checkAgainst(database.topology());
            return placement;
        } catch (IllegalArgumentException e) {
            LOG.warning(() -> "numacol: table " + entry.name() + " was placed " + entry.placement() + ", which this topology"
                    + " cannot place (" + e.getMessage() + "): it opens with the default placement");
            return null;
        }
    }

    /**
     * Reads the table's part files, several at once (a part is a copy and a checksum pass: one
     * thread leaves the other cores and the disk idle), and publishes them in their order.
     */
    private void readParts(TableEntry entry, Table table) {
        List<PartRef> refs = entry.parts();
        TablePart[] parts = new TablePart[refs.size()];
        java.util.concurrent.Semaphore slots = new java.util.concurrent.Semaphore(READERS);
        RuntimeException[] failed = new RuntimeException[1];
        try (var readers = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < refs.size(); i++) {
                int at = i;
                slots.acquireUninterruptibly();
                readers.execute(() -> {
                    try {
                        parts[at] = readPart(table, refs.get(at));
                    } catch (RuntimeException e) {
                        synchronized (failed) {
                            if (failed[0] == null) {
                                failed[0] = e;
                            }
                        }
                    } finally {
                        slots.release();
                    }
                });
            }
        } // waits for every read
        List<TablePart> read = new ArrayList<>();
        for (TablePart p : parts) {
            if (p != null) {
                read.add(p);
            }
        }
        try {
            if (failed[0] != null) {
                throw failed[0];
            }
            for (int i = 0; i < parts.length; i++) {
                files.add(new FileOfPart(entry.id(), parts[i].id(), refs.get(i), parts[i].deleted().count()));
            }
            table.replayParts(List.of(), read);
        } catch (RuntimeException | Error e) {
            read.forEach(TablePart::release);
            throw e;
        }
    }

    /** Part files read at once: the cores, at least two (one reads while another checksums). */
    private static final int READERS = Math.max(2, Runtime.getRuntime().availableProcessors());

    private TablePart readPart(Table table, PartRef ref) {
        Path file = directory.resolve(ref.fileName());
        try {
            // a part of a partition is read onto that partition's node, and stays the partition's if its
            // rows show they belong there under the table's partitioning now (PartFile.read)
            return PartFile.read(file, ref, catalog.memory(), database.partitioning(table),
                    partition -> database.restoredPartPlacement(table, partition));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read part file " + file + " of table " + table.displayName() + ": "
                    + e.getMessage(), e);
        }
    }

    // ---- the log

    private void apply(CommittedTransaction txn) {
        Map<Long, List<LogRecord>> byTable = new LinkedHashMap<>();
        for (LogRecord r : txn.changes()) {
            switch (r) {
                case LogRecord.CatalogState s -> {
                    flush(byTable);
                    try {
                        apply(CatalogImage.decode(s.image()), false);
                    } catch (IOException e) {
                        throw new UncheckedIOException("the log's catalog record of transaction " + txn.txn()
                                + " cannot be read: " + e.getMessage(), e);
                    }
                }
                case LogRecord.Insert i -> byTable.computeIfAbsent(i.table(), t -> new ArrayList<>()).add(r);
                case LogRecord.Delete d -> byTable.computeIfAbsent(d.table(), t -> new ArrayList<>()).add(r);
                case LogRecord.PartWritten w -> {
                    loggedFiles.put(w.fileName(), txn.commitLsn());
                    byTable.computeIfAbsent(w.table(), t -> new ArrayList<>()).add(r);
                }
                case LogRecord.DropParts d -> byTable.computeIfAbsent(d.table(), t -> new ArrayList<>()).add(r);
                case LogRecord.Commit c -> { }
                case LogRecord.Abort a -> { }
                case LogRecord.CheckpointDone c -> { }
            }
        }
        flush(byTable);
    }

    /** Applies each table's records of one transaction as one change, or keeps them for a table the catalog does not have yet. */
    private void flush(Map<Long, List<LogRecord>> byTable) {
        byTable.forEach((id, records) -> {
            // an id a record names is never given again, even one whose table never reached the catalog
            nextTableId = Math.max(nextTableId, id + 1);
            Table table = byId.get(id);
            if (table == null) {
                waiting.computeIfAbsent(id, t -> new ArrayList<>()).add(List.copyOf(records));
            } else {
                applyChange(table, records);
            }
        });
        byTable.clear();
    }

    /**
     * One transaction's records of {@code table} published as one change, as the transaction
     * published them: the keys are checked on what it did in all (an UPDATE of a key deletes the
     * row and adds it anew; a merge adds a part holding rows of the parts it drops).
     */
    private void applyChange(Table table, List<LogRecord> records) {
        Map<Long, TablePart> working = partsById(table);
        Map<Long, TablePart> head = partsById(table);
        Map<Long, TablePart> added = new LinkedHashMap<>(); // by id: new parts and new versions of head parts
        try {
            for (LogRecord r : records) {
                switch (r) {
                    case LogRecord.Insert i -> {
                        TablePart part = PartRows.build(table, i.part(), i.rows(), i.partition(), database.partitioning(table),
                                partition -> database.restoredPartPlacement(table, partition));
                        advanceIdentities(table, part);
                        put(working, added, part);
                    }
                    case LogRecord.PartWritten w -> {
                        PartRef ref = new PartRef(w.fileName(), w.size(), w.checksum());
                        TablePart part = readPart(table, ref);
                        advanceIdentities(table, part);
                        put(working, added, part);
                        files.add(new FileOfPart(idOf(table), part.id(), ref, part.deleted().count()));
                    }
                    case LogRecord.Delete d -> {
                        Map<Long, long[]> bitmaps = new LinkedHashMap<>();
                        for (int k = 0; k < d.rowCount(); k++) {
                            long rowId = d.rowId(k);
                            TablePart part = working.get(TablePart.partIdOf(rowId));
                            if (part == null) {
                                throw new IllegalStateException("the log deletes a row of part " + TablePart.partIdOf(rowId)
                                        + " of table " + table.displayName() + ", which it does not have: the log does not fit the checkpoint");
                            }
                            int position = TablePart.positionOf(rowId);
                            long[] bits = bitmaps.computeIfAbsent(part.id(), x -> new long[(part.rowCount() + 63) >>> 6]);
                            bits[position >>> 6] |= 1L << position;
                        }
                        bitmaps.forEach((id, bits) -> {
                            TablePart part = working.get(id);
                            TablePart version = part.withDeleted(bits);
                            if (version != part) {
                                put(working, added, version);
                            }
                        });
                    }
                    case LogRecord.DropParts d -> {
                        for (int k = 0; k < d.count(); k++) {
                            working.remove(d.partId(k));
                            TablePart mine = added.remove(d.partId(k));
                            if (mine != null) {
                                mine.release();
                            }
                        }
                    }
                    default -> throw new IllegalStateException("not a change of a table's parts: " + r);
                }
            }
            List<TablePart> old = new ArrayList<>();
            head.forEach((id, part) -> {
                if (!working.containsKey(id) || added.containsKey(id)) {
                    old.add(part);
                }
            });
            if (!old.isEmpty() || !added.isEmpty()) {
                table.replayParts(old, List.copyOf(added.values()));
            }
        } catch (RuntimeException | Error e) {
            added.values().forEach(TablePart::release);
            throw e;
        }
    }

    /** {@code part} (new, or a new version) in the working set; an earlier unpublished version of it goes. */
    private static void put(Map<Long, TablePart> working, Map<Long, TablePart> added, TablePart part) {
        working.put(part.id(), part);
        TablePart before = added.put(part.id(), part);
        if (before != null && before != part) {
            before.release();
        }
    }

    private long idOf(Table table) {
        for (Map.Entry<Long, Table> e : byId.entrySet()) {
            if (e.getValue() == table) {
                return e.getKey();
            }
        }
        throw new IllegalStateException("table " + table.displayName() + " has no durable id");
    }

    private static Map<Long, TablePart> partsById(Table table) {
        Map<Long, TablePart> parts = new HashMap<>();
        for (TablePart p : table.parts()) {
            parts.put(p.id(), p);
        }
        return parts;
    }

    // ---- identities

    /** An image logged later may have counted an identity further than the one the table was made from. */
    private static void advanceFrom(TableSchema now, TableSchema logged) {
        for (int c = 0; c < Math.min(now.size(), logged.size()); c++) {
            TableSchema.Identity mine = now.column(c).identity();
            TableSchema.Identity theirs = logged.column(c).identity();
            if (mine != null && theirs != null && mine.sequence() != theirs.sequence()) {
                mine.sequence().advancePast(theirs.sequence().peek() - theirs.sequence().increment());
            }
        }
    }

    /**
     * An identity's counter is not logged with each number it hands out: after a crash it goes on
     * past every value its column holds (PostgreSQL's sequences likewise skip what they may have given).
     */
    private void advanceIdentities() {
        for (Table table : byId.values()) {
            for (TablePart part : table.parts()) {
                advanceIdentities(table, part);
            }
        }
    }

    /**
     * Moves the table's identity counters past every value {@code part} holds: done for every part
     * replayed, also one a later record drops (a TRUNCATE), since its numbers were handed out.
     */
    private static void advanceIdentities(Table table, TablePart part) {
        TableSchema schema = table.schema();
        for (int c = 0; c < schema.size() && c < part.columns().size(); c++) {
            TableSchema.Identity identity = schema.column(c).identity();
            if (identity == null) {
                continue;
            }
            Sequence sequence = identity.sequence();
            Column column = part.column(c);
            for (int vid = 0; vid < column.dictionary().size(); vid++) {
                if (vid != column.nullVid() && column.dictionary().stored(vid) instanceof Long v) {
                    sequence.advancePast(Objects.requireNonNull(v));
                }
            }
        }
    }
}
