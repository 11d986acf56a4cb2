package io.pdgateway.core.cache;

/**
 * What a pod's engine reports about its own prefix cache (vLLM and SGLang KV-cache events), re-keyed to the gateway's
 * {@link BlockHasher} block hashes of {@link BlockHasher#DEFAULT_BLOCK_TOKENS}-token blocks. The receiver is the
 * gateway's per-pod cache view: while a pod's events flow, they replace the gateway's own guess of what it holds.
 * Pods are named by id (namespace/name). Implementations are thread-safe.
 */
public interface PodCacheEvents {
    /** The pod now holds these blocks, in prefix order (each one's parent is the one before it). */
    void stored(String podId, long[] blockHashes);

    /** The pod evicted these blocks. Unknown hashes are ignored. */
    void removed(String podId, long[] blockHashes);

    /** The pod dropped its whole prefix cache (vLLM's AllBlocksCleared, e.g. after a reset). */
    void cleared(String podId);

    /**
     * Whether the pod's event stream can be trusted right now. False when it stopped, fell behind beyond what replay
     * restored, or was never seen: the view then falls back to the gateway-side model until events flow again.
     */
    void live(String podId, boolean live);
}
