package io.pdgateway.server.kvevents;

/**
 * The engine evicted these blocks.
 *
 * @param medium as in {@link BlockStored}, or null
 * @param groupIdx as in {@link BlockStored}, or null
 */
public record BlockRemoved(long[] blockHashes, String medium, Integer groupIdx) implements KvEvent {}
