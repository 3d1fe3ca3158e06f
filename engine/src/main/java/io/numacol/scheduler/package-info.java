/**
 * The NUMA-aware task scheduler of the thesis (Psaroudakis, §4.1 and §5.3): every query runs its
 * work here as tasks.
 *
 * <ul>
 *   <li>A {@link io.numacol.scheduler.Scheduler} is what callers use. Its implementation of the
 *       thesis, the {@link io.numacol.scheduler.WorkerPoolScheduler}, has one or more
 *       {@code WorkerGroup}s per NUMA node. Each group has a stealable priority queue, a hard queue
 *       for tasks bound to the node, and its workers; it keeps as many workers working as it has
 *       hardware threads. The {@link io.numacol.scheduler.InlineScheduler} runs every task on the
 *       thread that submits it, for tests and debugging.</li>
 *   <li>A {@link io.numacol.scheduler.Statement} (the thesis's SQL statement) orders its tasks by
 *       its user priority and age, and carries the cancel flag and the first failure.</li>
 *   <li>A {@link io.numacol.scheduler.TaskGroup} is one stage of a statement: tasks are submitted
 *       into it (and may spawn children) and the stage is awaited as a whole.</li>
 *   <li>Each task has an {@link io.numacol.scheduler.Affinity}, which the statement's
 *       {@link io.numacol.scheduler.StealPolicy} turns into the queue it lands in.</li>
 * </ul>
 *
 * <p>Where a worker decides what to run and whom to steal from: {@code Worker.findTask()}.
 */
package io.numacol.scheduler;
