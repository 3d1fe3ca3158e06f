package io.numacol.exec;

/** Where an operator pushes the chunks it makes; a chunk is valid only until {@code accept} returns. */
@FunctionalInterface
interface ChunkSink {
    void accept(Chunk chunk);
}
