package io.numacol.storage;

import io.numacol.memory.Component;
import io.numacol.memory.MemoryPlacement;
import io.numacol.memory.NumaMemory;
import io.numacol.storage.types.ColumnType;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One column of a table part: its Dictionary, its IndexVector of vids and, optionally, its
 * Index. A NULL is the vid one past the dictionary ({@link #nullVid()}), so value predicates,
 * which only ever name dictionary vids, never match it and the scan kernel needs no null test.
 */
public final class Column {
    private final String name;
    private final ColumnType type;
    private final Dictionary dictionary;
    private final IndexVector indexVector;
    private final InvertedIndex index;
    /** Where its pages were last asked to go: at the build, then by {@link #moveTo}. */
    private volatile ColumnPlacement placement;
    private final boolean hasNulls;

    Column(String name, ColumnType type, Dictionary dictionary, IndexVector indexVector, InvertedIndex index,
           ColumnPlacement placement, boolean hasNulls) {
        this.name = name;
        this.type = type;
        this.dictionary = dictionary;
        this.indexVector = indexVector;
        this.index = index;
        this.placement = placement;
        this.hasNulls = hasNulls;
    }

    /**
     * A column of components already in memory (read back from a checkpoint), with the invariants
     * a built column has checked: the dictionary stores the type's storage kind, the bitcase holds
     * every vid up to the null vid, and an index covers every row and vid.
     *
     * @throws IllegalArgumentException when the components do not fit together
     */
    public static Column restored(String name, ColumnType type, Dictionary dictionary, IndexVector indexVector,
                                  InvertedIndex index, ColumnPlacement placement, boolean hasNulls) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(dictionary, "dictionary");
        Objects.requireNonNull(indexVector, "indexVector");
        Objects.requireNonNull(placement, "placement");
        if (dictionary.storageKind() != type.storageKind()) {
            throw new IllegalArgumentException("column " + name + " of type " + type + " cannot hold a dictionary of "
                    + dictionary.storageKind() + " values");
        }
        long vids = dictionary.size() + (hasNulls ? 1L : 0L);
        if (vids - 1 > Integer.toUnsignedLong(IndexVector.maxVid(indexVector.bitcase()))) {
            throw new IllegalArgumentException("column " + name + ": bitcase " + indexVector.bitcase() + " cannot hold its "
                    + vids + " vids");
        }
        if (index != null && (index.vidCount() != vids || index.rowCount() != indexVector.length())) {
            throw new IllegalArgumentException("column " + name + ": an index of " + index.vidCount() + " vids and "
                    + index.rowCount() + " rows for " + vids + " vids and " + indexVector.length() + " rows");
        }
        return new Column(name, type, dictionary, indexVector, index, placement, hasNulls);
    }

    public String name() {
        return name;
    }

    public ColumnType type() {
        return type;
    }

    public Dictionary dictionary() {
        return dictionary;
    }

    public IndexVector indexVector() {
        return indexVector;
    }

    /** The Index (vid to positions), or null when the column was built without one. */
    public InvertedIndex index() {
        return index;
    }

    public ColumnPlacement placement() {
        return placement;
    }

    public int rowCount() {
        return indexVector.length();
    }

    public int bitcase() {
        return indexVector.bitcase();
    }

    public boolean hasNulls() {
        return hasNulls;
    }

    /** The vid NULL is stored as, or -1 when the column holds no NULL. */
    public int nullVid() {
        return hasNulls ? dictionary.size() : -1;
    }

    public boolean isNull(int row) {
        return hasNulls && indexVector.get(row) == dictionary.size();
    }

    /** The value of a row as Java sees it (Integer, Long, BigDecimal, LocalDate, String, ...), or null. */
    public Object value(int row) {
        return valueOf(indexVector.get(row));
    }

    /**
     * The stored values (Long, Double or String; null for NULL) of rows {@code [from, to)}, each
     * distinct value made once: how a merge, a cut or a repartitioning copies rows.
     */
    public Object[] storedValues(int from, int to) {
        Object[] out = new Object[to - from];
        Object[] byVid = new Object[dictionary.size() + 1]; // the null vid stays null
        int[] vids = new int[IndexVector.BLOCK_ROWS];
        for (int start = from; start < to; start += vids.length) {
            int end = Math.min(to, start + vids.length);
            indexVector.decode(start, end, vids, 0);
            for (int i = 0; i < end - start; i++) {
                int vid = vids[i];
                Object v = byVid[vid];
                if (v == null && vid != nullVid()) {
                    v = byVid[vid] = dictionary.stored(vid);
                }
                out[start - from + i] = v;
            }
        }
        return out;
    }

    /** The Java value of a vid (null for the null vid). */
    public Object valueOf(int vid) {
        if (hasNulls && vid == dictionary.size()) {
            return null;
        }
        return switch (dictionary) {
            case LongDictionary d -> type.toJava(d.getLong(vid));
            case DoubleDictionary d -> type.toJava(d.getDouble(vid));
            case StringDictionary d -> type.toJava(d.getString(vid));
        };
    }

    /**
     * Moves this column's pages where {@code target} says. Their addresses stay, so readers go on
     * reading throughout. Returns how many pages the kernel could not move.
     */
    long moveTo(ColumnPlacement target, NumaMemory memory) {
        long failed = 0;
        for (Map.Entry<Component, List<MemorySegment>> e : segments().entrySet()) {
            MemoryPlacement to = switch (e.getKey()) {
                case DICTIONARY -> target.dictionary();
                case INDEX_VECTOR -> target.indexVectorSplit() != null ? null : target.indexVector();
                default -> target.index();
            };
            for (MemorySegment segment : e.getValue()) {
                if (to != null && segment.byteSize() > 0) { // an empty component was never mapped
                    failed += memory.movePages(segment.address(), segment.byteSize(), to);
                }
            }
        }
        if (target.indexVectorSplit() != null) {
            failed += splitPages(indexVector.segment(), target.indexVectorSplit(), memory);
        }
        placement = target;
        return failed;
    }

    /**
     * IVP: equal contiguous page ranges of the IndexVector, one per node, moved there. Public for
     * whoever fills an IndexVector's memory outside a build (a checkpoint's reader): the pages
     * must be touched first, since the kernel moves no page that was never faulted in.
     */
    public static long splitPages(MemorySegment iv, int[] nodes, NumaMemory memory) {
        long pageSize = memory.pageSize();
        long pages = (iv.byteSize() + pageSize - 1) / pageSize;
        long failed = 0;
        for (int k = 0; k < nodes.length; k++) {
            long from = pages * k / nodes.length;
            long to = pages * (k + 1) / nodes.length;
            if (to > from) {
                failed += memory.movePages(iv.address() + from * pageSize, Math.min(iv.byteSize(), to * pageSize) - from * pageSize,
                        MemoryPlacement.onNode(nodes[k]));
            }
        }
        return failed;
    }

    /** The memory of each component, for accounting and PageSocketMaps. */
    public Map<Component, List<MemorySegment>> segments() {
        Map<Component, List<MemorySegment>> out = new EnumMap<>(Component.class);
        out.put(Component.DICTIONARY, dictionary.segments());
        out.put(Component.INDEX_VECTOR, List.of(indexVector.segment()));
        if (index != null) {
            out.put(Component.INDEX, index.segments());
        }
        return out;
    }

    public long byteSize(Component component) {
        return switch (component) {
            case DICTIONARY -> dictionary.byteSize();
            case INDEX_VECTOR -> indexVector.segment().byteSize();
            case INDEX -> index == null ? 0 : index.byteSize();
            case HASH_TABLE, OTHER -> 0;
        };
    }

    public List<MemorySegment> allSegments() {
        List<MemorySegment> all = new ArrayList<>();
        segments().values().forEach(all::addAll);
        return all;
    }

    @Override
    public String toString() {
        return name + " " + type + " (" + rowCount() + " rows, " + dictionary.size() + " distinct, bitcase "
                + bitcase() + ", " + placement + ")";
    }
}
