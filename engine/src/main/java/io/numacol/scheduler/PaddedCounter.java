package io.numacol.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A counter alone on its cache lines, for one written by workers and read by others: its
 * neighbours' writes would otherwise drag the line between cores on every task. Superclass
 * fields are laid out first, so the padding classes put 128 bytes on either side of the value:
 * two lines, as JCTools' PaddedAtomicLong pads, since the adjacent-line prefetcher pulls lines
 * in pairs.
 */
final class PaddedCounter extends PaddedCounterValue {
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(PaddedCounterValue.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")
    private byte q000, q001, q002, q003, q004, q005, q006, q007, q008, q009, q010, q011, q012, q013, q014, q015,
            q016, q017, q018, q019, q020, q021, q022, q023, q024, q025, q026, q027, q028, q029, q030, q031,
            q032, q033, q034, q035, q036, q037, q038, q039, q040, q041, q042, q043, q044, q045, q046, q047,
            q048, q049, q050, q051, q052, q053, q054, q055, q056, q057, q058, q059, q060, q061, q062, q063,
            q064, q065, q066, q067, q068, q069, q070, q071, q072, q073, q074, q075, q076, q077, q078, q079,
            q080, q081, q082, q083, q084, q085, q086, q087, q088, q089, q090, q091, q092, q093, q094, q095,
            q096, q097, q098, q099, q100, q101, q102, q103, q104, q105, q106, q107, q108, q109, q110, q111,
            q112, q113, q114, q115, q116, q117, q118, q119, q120, q121, q122, q123, q124, q125, q126, q127;

    /** Adds {@code n} and returns the new value. */
    long add(long n) {
        return (long) VALUE.getAndAdd(this, n) + n;
    }

    long get() {
        return value;
    }
}

abstract class PaddedCounterValue extends LinePadding {
    volatile long value;
}
