package io.numacol.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A worker group's lock-free inbox: submitters push tasks without the group's lock, and whoever
 * holds the lock takes them all at once. Its head sits alone on its cache lines (120 bytes of
 * padding on either side, laid out by the superclasses as in {@link PaddedCounter}): every
 * submission writes it, and the group's "has tasks" flags, read by every worker looking for
 * work, must not share its line.
 */
final class Inbox extends InboxHead {
    private static final VarHandle HEAD;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(InboxHead.class, "head", QueuedTask.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")
    private long q1, q2, q3, q4, q5, q6, q7, q8, q9, q10, q11, q12, q13, q14, q15;

    /** Pushes {@code t} (newest first, linked through {@link QueuedTask#next}); a full fence, as the caller's Dekker handshake needs. */
    void push(QueuedTask t) {
        QueuedTask h;
        do {
            h = head;
            t.next = h;
        } while (!HEAD.weakCompareAndSet(this, h, t));
    }

    boolean isEmpty() {
        return head == null;
    }

    /** Takes every task pushed so far, oldest first, linked through {@link QueuedTask#next}; null when none. */
    QueuedTask takeAll() {
        if (head == null) {
            return null;
        }
        QueuedTask t = (QueuedTask) HEAD.getAndSet(this, (QueuedTask) null);
        QueuedTask oldest = null;
        while (t != null) {
            QueuedTask next = t.next;
            t.next = oldest;
            oldest = t;
            t = next;
        }
        return oldest;
    }
}

abstract class InboxHead extends LinePadding {
    volatile QueuedTask head;
}
