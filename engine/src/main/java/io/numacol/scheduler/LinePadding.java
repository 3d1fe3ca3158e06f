package io.numacol.scheduler;

/**
 * 128 bytes laid out before a subclass's fields: with as many after them (each padded class
 * declares its own after its hot fields), a field written often sits alone on two cache lines, as JCTools pads against the adjacent-line prefetcher. The padding
 * is bytes, not longs, as JCTools' has been since JDK 15: HotSpot then places a subclass's field
 * in any gap the superclass's layout leaves, and longs left the 4 bytes after the object header
 * open, so an Inbox's head sat at offset 12, before its padding (LayoutTest checks every padded
 * class). {@link PaddedCounter}, {@link Inbox}, {@link WorkerStats} and {@link
 * WorkerGroup}'s drain counters use it.
 */
abstract class LinePadding {
    @SuppressWarnings("unused")
    private byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015,
            p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031,
            p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047,
            p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063,
            p064, p065, p066, p067, p068, p069, p070, p071, p072, p073, p074, p075, p076, p077, p078, p079,
            p080, p081, p082, p083, p084, p085, p086, p087, p088, p089, p090, p091, p092, p093, p094, p095,
            p096, p097, p098, p099, p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111,
            p112, p113, p114, p115, p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127;
}
