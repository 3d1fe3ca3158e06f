package io.numacol.storage;

import io.numacol.memory.Component;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

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
    private final ColumnPlacement placement;
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
