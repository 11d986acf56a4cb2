package io.pdgateway.server.kvevents;

/**
 * One KV-cache event as an engine publishes it (vLLM's and SGLang's {@code KVCacheEvent} union), decoded from the wire
 * by {@link KvEventDecoder}. Block hashes are the engine's own, folded to 64 bits (see {@link KvEventDecoder}).
 */
public sealed interface KvEvent permits BlockStored, BlockRemoved, AllBlocksCleared {

    /** The wire tag of {@link BlockStored}. */
    String BLOCK_STORED = "BlockStored";
    /** The wire tag of {@link BlockRemoved}. */
    String BLOCK_REMOVED = "BlockRemoved";
    /** The wire tag of {@link AllBlocksCleared}. */
    String ALL_BLOCKS_CLEARED = "AllBlocksCleared";
}
