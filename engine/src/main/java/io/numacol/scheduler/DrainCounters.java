package io.numacol.scheduler;

/**
 * A {@link WorkerGroup}'s count of tasks taken since its inbox was last drained, and when that
 * was: written on every poll, so alone on their cache lines (see {@link LinePadding}), apart
 * from the group's queue flags, which every poll reads.
 */
final class DrainCounters extends DrainCounterValues {
    @SuppressWarnings("unused")
    private byte q000, q001, q002, q003, q004, q005, q006, q007, q008, q009, q010, q011, q012, q013, q014, q015,
            q016, q017, q018, q019, q020, q021, q022, q023, q024, q025, q026, q027, q028, q029, q030, q031,
            q032, q033, q034, q035, q036, q037, q038, q039, q040, q041, q042, q043, q044, q045, q046, q047,
            q048, q049, q050, q051, q052, q053, q054, q055, q056, q057, q058, q059, q060, q061, q062, q063,
            q064, q065, q066, q067, q068, q069, q070, q071, q072, q073, q074, q075, q076, q077, q078, q079,
            q080, q081, q082, q083, q084, q085, q086, q087, q088, q089, q090, q091, q092, q093, q094, q095,
            q096, q097, q098, q099, q100, q101, q102, q103, q104, q105, q106, q107, q108, q109, q110, q111,
            q112, q113, q114, q115, q116, q117, q118, q119, q120, q121, q122, q123, q124, q125, q126, q127;
}

abstract class DrainCounterValues extends LinePadding {
    volatile int taken;
    volatile long last;
}
