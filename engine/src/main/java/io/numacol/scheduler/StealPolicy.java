package io.numacol.scheduler;

/**
 * How a statement's tasks use their affinities (thesis §5.3 and §6.4). An engine has a default;
 * a statement may override it.
 */
public enum StealPolicy {
    /** No affinities and no binding: the OS places the threads. */
    OS,
    /** Affinities: tasks queue on their node, idle nodes may steal them. */
    TARGET,
    /** Affinities with the hard flag: only workers of the task's node run it. */
    BOUND,
    /** Affinities, hard for the task classes a {@link HardAffinityAdvisor} names. */
    ADAPTIVE;

    /**
     * The one place where a policy turns the affinity a caller asked for into the one the task
     * is queued with:
     * <pre>
     *             none   node(k)                    hard(k)
     *   OS        none   none                       none
     *   TARGET    none   node(k)                    hard(k)
     *   BOUND     none   hard(k)                    hard(k)
     *   ADAPTIVE  none   advisor ? hard(k):node(k)  hard(k)
     * </pre>
     * An explicit hard request survives every policy but OS, which ignores affinities altogether.
     */
    public Affinity apply(Affinity requested, TaskClass taskClass, HardAffinityAdvisor advisor) {
        if (requested.isNone()) {
            return requested;
        }
        return switch (this) {
            case OS -> Affinity.none();
            case TARGET -> requested;
            case BOUND -> requested.asHard();
            case ADAPTIVE -> requested.isHard() || advisor.hard(taskClass) ? requested.asHard() : requested;
        };
    }
}
