package io.numacol.checkpoint;

import io.numacol.storage.NamedSequence;
import io.numacol.storage.SequenceDef;

/**
 * One sequence as a {@link CatalogImage} records it: its definition, and where its counter goes
 * on from when it is read back, which is the counter's reservation ({@link NamedSequence#reserved}),
 * ahead of any number given before the image was written.
 *
 * @param def       what CREATE SEQUENCE declared
 * @param next      the number the sequence gives next
 * @param exhausted true when it gives none (past its end without CYCLE)
 */
public record SequenceEntry(SequenceDef def, long next, boolean exhausted) {
    public SequenceEntry {
        if (next < def.minValue() || next > def.maxValue()) {
            throw new IllegalArgumentException("sequence " + def.name() + " goes on at " + next + ", outside its bounds "
                    + def.minValue() + ".." + def.maxValue());
        }
    }

    /** The entry of a live sequence: its reservation. */
    public static SequenceEntry of(NamedSequence sequence) {
        NamedSequence.Position at = sequence.reserved();
        return new SequenceEntry(sequence.def(), at.next(), at.exhausted());
    }

    /** Where the sequence's counter goes on from. */
    public NamedSequence.Position position() {
        return new NamedSequence.Position(next, exhausted);
    }
}
