package io.pdgateway.server.kvevents;

/**
 * The engine cached these full blocks, in prefix order.
 *
 * @param blockHashes the engine's hashes, one per block
 * @param parentBlockHash the engine hash of the block before the first one, or null when the first block starts
 *     the sequence
 * @param tokenIds every block's tokens, concatenated
 * @param blockSize tokens per block (vLLM's block size; SGLang's page size)
 * @param loraId the adapter id (deprecated by vLLM in favour of the name), or null
 * @param loraName the adapter name, or null for the base model (vLLM 0.11+; SGLang later)
 * @param medium where the blocks live ("GPU", "CPU", ...), or null when the engine does not say (older engines)
 * @param groupIdx the KV-cache group of a hybrid model (vLLM), or null
 * @param cacheSpecKind the group's kind, e.g. "full_attention" or "sliding_window" (vLLM), or null
 */
public record BlockStored(long[] blockHashes, Long parentBlockHash, int[] tokenIds, int blockSize, Integer loraId,
        String loraName, String medium, Integer groupIdx, String cacheSpecKind) implements KvEvent {}
