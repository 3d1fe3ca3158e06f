package io.numacol.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A worker group's lock-free inbox: submitters push tasks without the group's lock, and a poller
 * takes them all at once. Submitters push onto one of several stripes, picked by thread, so that
 * concurrent submitters do not fight over one head; each head sits alone on its cache lines
 * (128 bytes of padding on either side, laid out by the superclasses as in {@link
 * PaddedCounter}), and the group's "has tasks" flags, read by every worker looking for work,
 * do not share them.
 */
final class Inbox {
    private static final VarHandle HEAD;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(InboxHead.class, "head", QueuedTask.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Stripe[] stripes;
    private final int mask;

    /** @param stripes a power of two */
    Inbox(int stripes) {
        if (Integer.bitCount(stripes) != 1) {
            throw new IllegalArgumentException("stripes must be a power of two, got " + stripes);
        }
        this.stripes = new Stripe[stripes];
        for (int i = 0; i < stripes; i++) {
            this.stripes[i] = new Stripe();
        }
        this.mask = stripes - 1;
    }

    /**
     * Pushes {@code t} onto the calling thread's stripe (newest first, linked through {@link
     * QueuedTask#next}); a full fence, as the caller's Dekker handshake needs.
     */
    void push(QueuedTask t) {
        Stripe s = stripes[(int) Thread.currentThread().threadId() & mask];
        QueuedTask h;
        do {
            h = s.head;
            t.next = h;
        } while (!HEAD.weakCompareAndSet(s, h, t));
    }

    boolean isEmpty() {
        for (Stripe s : stripes) {
            if (s.head != null) {
                return false;
            }
        }
        return true;
    }

    /**
     * Takes every task pushed so far, linked through {@link QueuedTask#next}, null when none: the
     * tasks of each stripe oldest first, a later stripe's before an earlier one's. (A thread's
     * tasks keep their order within one take; two takes may reach the queues in either order,
     * as the second may be queued while the first's taker has not taken the lock yet.)
     */
    QueuedTask takeAll() {
        QueuedTask oldest = null;
        for (Stripe s : stripes) {
            if (s.head == null) {
                continue;
            }
            // reversing a stripe's newest-first chain onto the result puts it, oldest first, in front
            QueuedTask t = (QueuedTask) HEAD.getAndSet(s, (QueuedTask) null);
            while (t != null) {
                QueuedTask next = t.next;
                t.next = oldest;
                oldest = t;
                t = next;
            }
        }
        return oldest;
    }

    private static final class Stripe extends InboxHead {
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
}

abstract class InboxHead extends LinePadding {
    volatile QueuedTask head;
}
