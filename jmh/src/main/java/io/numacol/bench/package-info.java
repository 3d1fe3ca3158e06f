/**
 * JMH benchmarks of numacol's hot paths, run through {@link io.numacol.bench.BenchMain} so that
 * the forks get numacol's JVM flags.
 */
package io.numacol.bench;
