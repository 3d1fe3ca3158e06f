package io.numacol.testing;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test that leaves its thread interrupted. The engine re-sets the interrupt flag of a
 * thread whose wait it cut short, and a flag left behind would surface as an
 * InterruptedException or a cancelled statement in whichever test happens to wait next, far from
 * its cause. A flag found set before a test began was set between tests, by a thread some
 * earlier test left running: it is cleared and reported as such.
 */
public final class InterruptedThreadCheck implements BeforeEachCallback, AfterEachCallback {
    @Override
    public void beforeEach(ExtensionContext context) {
        if (Thread.interrupted()) {
            throw new AssertionError("thread " + Thread.currentThread().getName() + " was interrupted before "
                    + context.getRequiredTestClass().getSimpleName() + "." + context.getDisplayName()
                    + " began (flag cleared): a thread an earlier test left running interrupts it");
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (Thread.interrupted()) {
            throw new AssertionError(context.getRequiredTestClass().getSimpleName() + "." + context.getDisplayName()
                    + " left its thread " + Thread.currentThread().getName() + " interrupted");
        }
    }
}
