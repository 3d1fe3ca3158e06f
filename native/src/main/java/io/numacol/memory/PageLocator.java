package io.numacol.memory;

/**
 * Where pages are, in numacol node ids. {@link NumaMemory#kernelPages()} asks the kernel
 * (move_pages); {@link NumaMemory#bookkeptPages()} answers from numacol's own record of where
 * it asked pages to go, which is the only truth a fake topology has.
 */
public interface PageLocator {

    /**
     * Fills {@code nodes[0..pageCount)} with the node of each page from the page-aligned
     * {@code address} on, or -1 for a page with no node (not faulted in, or not numacol's).
     */
    void locate(long address, int pageCount, int[] nodes);
}
