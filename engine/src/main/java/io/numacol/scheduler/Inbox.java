package io.numacol.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A worker group's lock-free inbox: submitters push tasks without the group's lock, and a poller
 * takes them all at once. Submitters push onto one of several stripes, picked by thread, so that
 * concurrent submitters do not fight over one head; each head sits alone on its cache lines
 * (120 bytes of padding on either side, laid out by the superclasses as in {@link
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
        private long q1, q2, q3, q4, q5, q6, q7, q8, q9, q10, q11, q12, q13, q14, q15;
    }
}

abstract class InboxHead extends LinePadding {
    volatile QueuedTask head;
}
