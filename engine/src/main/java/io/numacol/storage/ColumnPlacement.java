package io.numacol.storage;

import io.numacol.memory.MemoryPlacement;

import java.util.Arrays;
import java.util.Objects;

/**
 * Where one column's components go when it is built. {@code indexVectorSplit}, when not null,
 * spreads the IndexVector's pages over those nodes in equal contiguous ranges after it is
 * packed (the thesis's IVP); the {@code indexVector} placement is then only where it starts.
 */
public record ColumnPlacement(MemoryPlacement dictionary, MemoryPlacement indexVector, MemoryPlacement index,
                              int[] indexVectorSplit) {

    public ColumnPlacement {
        Objects.requireNonNull(dictionary, "dictionary");
        Objects.requireNonNull(indexVector, "indexVector");
        Objects.requireNonNull(index, "index");
        if (indexVectorSplit != null) {
            indexVectorSplit = indexVectorSplit.clone();
            if (indexVectorSplit.length == 0) {
                throw new IllegalArgumentException("an IndexVector split needs at least one node");
            }
        }
    }

    /** Every component on one node. */
    public static ColumnPlacement onNode(int node) {
        MemoryPlacement p = MemoryPlacement.onNode(node);
        return new ColumnPlacement(p, p, p, null);
    }

    /** Every component interleaved page by page over {@code nodes}. */
    public static ColumnPlacement interleaved(int... nodes) {
        MemoryPlacement p = MemoryPlacement.interleaved(nodes);
        return new ColumnPlacement(p, p, p, null);
    }

    /** IVP: the IndexVector split in page ranges over {@code nodes}; dictionary and index interleaved. */
    public static ColumnPlacement indexVectorPartitioned(int... nodes) {
        MemoryPlacement il = MemoryPlacement.interleaved(nodes);
        return new ColumnPlacement(il, MemoryPlacement.onNode(nodes[0]), il, nodes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ColumnPlacement c && dictionary.equals(c.dictionary) && indexVector.equals(c.indexVector)
                && index.equals(c.index) && Arrays.equals(indexVectorSplit, c.indexVectorSplit);
    }

    @Override
    public int hashCode() {
        return Objects.hash(dictionary, indexVector, index, Arrays.hashCode(indexVectorSplit));
    }

    @Override
    public String toString() {
        return indexVectorSplit != null ? "IVP" + Arrays.toString(indexVectorSplit)
                : dictionary.equals(indexVector) && indexVector.equals(index) ? dictionary.toString()
                : "dictionary " + dictionary + ", index vector " + indexVector + ", index " + index;
    }
}
