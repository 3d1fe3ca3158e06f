/**
 * Where column data sits: the {@link io.numacol.placement.PageSocketMap} that records, page
 * range by page range, which node holds a component's memory, and the placement strategies
 * (RR, IVP, PP, interleaved, one node) of the thesis built on it.
 */
package io.numacol.placement;
