/**
 * The NUMA nodes numacol knows: read from the kernel, a single node when libnuma is missing, or
 * a fake N-node topology over the real CPUs for testing multi-node logic on a one-node machine.
 */
package io.numacol.topology;
