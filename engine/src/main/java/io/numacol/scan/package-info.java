/**
 * The scan: evaluates a {@link io.numacol.scan.VidPredicate} over a row range of an
 * {@link io.numacol.storage.IndexVector} and reports the matching rows as a
 * {@link io.numacol.scan.BitVector} or a {@link io.numacol.scan.PositionList}. This is the
 * database's hot path; {@link io.numacol.scan.ScanKernels} picks the SIMD (Vector API) or
 * scalar {@link io.numacol.scan.ScanKernel} once per JVM.
 *
 * <p>Predicates here speak vids only: translating SQL values to vids (through the dictionary)
 * happens before a scan.
 */
package io.numacol.scan;
