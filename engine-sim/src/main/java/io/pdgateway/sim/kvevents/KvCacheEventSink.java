package io.pdgateway.sim.kvevents;

/**
 * What a simulated pod's prefix cache reports as it changes, in the engines' terms: engine block hashes (chained: each
 * covers its block and every block before it), the tokens of stored blocks, and the block size. Calls add events to the
 * current batch; {@link #flush} publishes it, as an engine publishes once per scheduler step. Thread-safe.
 */
public interface KvCacheEventSink {
    /** A sink that drops everything: a pod without {@code --kv-events-config}. */
    KvCacheEventSink NONE = new KvCacheEventSink() {
        @Override
        public void stored(long[] blockHashes, Long parentBlockHash, int[] tokenIds, int blockSize) {}

        @Override
        public void removed(long[] blockHashes) {}

        @Override
        public void cleared() {}

        @Override
        public void flush() {}
    };

    /**
     * Blocks newly cached, in prefix order.
     *
     * @param parentBlockHash the block before the first one, or null when the first block starts the sequence
     * @param tokenIds every block's tokens, concatenated: blockHashes.length × blockSize of them
     */
    void stored(long[] blockHashes, Long parentBlockHash, int[] tokenIds, int blockSize);

    /** Blocks evicted. */
    void removed(long[] blockHashes);

    /** The whole prefix cache dropped (a reset). */
    void cleared();

    /** Publishes the events added since the last flush as one batch; nothing when there are none. */
    void flush();
}
