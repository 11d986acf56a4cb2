package io.pdgateway.server.kvevents;

/**
 * One pod whose KV-cache events the gateway should follow.
 *
 * @param podId namespace/name, the id {@link io.pdgateway.core.cache.PodCacheEvents} is told about
 * @param model the model the pod serves: it seeds the gateway's block hashes ({@link io.pdgateway.core.cache.BlockHasher})
 * @param endpoint where the pod publishes
 */
public record KvEventsTarget(String podId, String model, KvEventsEndpoint endpoint) {}
