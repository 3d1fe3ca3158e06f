/**
 * Where column data sits: the {@link io.numacol.placement.PageSocketMap} that records, page
 * range by page range, which node holds a component's memory, and the placement strategies
 * (RR, IVP, PP, interleaved, one node) of the thesis built on it; the {@link
 * io.numacol.placement.Utilization} histories per node and per table part, and the {@link
 * io.numacol.placement.PlacerAlgorithm} that decides from them where parts go next.
 */
package io.numacol.placement;
