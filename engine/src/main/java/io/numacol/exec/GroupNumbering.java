package io.numacol.exec;

/**
 * How {@link VectorAggregator} gives the packed keys of a block's rows dense group numbers,
 * asking it for a new group at a key not seen yet: through an array indexed by the key when the
 * keys are narrow ({@link DirectGroupNumbering}), else through a hash table
 * ({@link HashGroupNumbering}).
 */
sealed interface GroupNumbering permits DirectGroupNumbering, HashGroupNumbering {
    /** Sets {@code groupOf[i]} to the group number of {@code keys[i]}, for each i below {@code n}. */
    void assign(long[] keys, int n, int[] groupOf);
}
