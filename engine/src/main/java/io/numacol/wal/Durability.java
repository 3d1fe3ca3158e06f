package io.numacol.wal;

/**
 * When {@link LogWriter#commit} returns, as against when the commit's records reach the disk.
 * The modes trade the durability of each commit for its latency; a {@link LogWriter#close()},
 * {@link LogWriter#rotate()} and {@link LogWriter#sync()} force the log to the disk in every mode.
 */
public enum Durability {
    /**
     * The commit is on the disk ({@code FileChannel.force}) when {@code commit} returns: it
     * survives a crash of the machine. Concurrent committers share one force (group commit).
     */
    FSYNC,
    /**
     * The commit is written to the operating system when {@code commit} returns, not forced: it
     * survives a crash of the process but perhaps not of the machine.
     */
    FLUSH,
    /**
     * The commit stays in the writer's buffer until the buffer fills, a rotation or the close:
     * a crash of the process may lose the last commits (never part of one, since replay applies
     * only transactions whose commit record was read whole).
     */
    NONE
}
