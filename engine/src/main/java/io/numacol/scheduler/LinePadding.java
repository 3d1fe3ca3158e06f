package io.numacol.scheduler;

/**
 * 120 bytes laid out before a subclass's fields (superclass fields come first): with as many
 * after them, a field written often sits alone on two cache lines, as JCTools pads against the
 * adjacent-line prefetcher. {@link PaddedCounter}, {@link Inbox} and {@link WorkerStats} use it.
 */
abstract class LinePadding {
    @SuppressWarnings("unused")
    private long p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15;
}
