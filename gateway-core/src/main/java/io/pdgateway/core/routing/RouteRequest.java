package io.pdgateway.core.routing;

import io.pdgateway.core.config.PdKnobs;

/**
 * What routing needs to know about one request; built at the edge from the HTTP request.
 *
 * @param promptTokens the prompt's length in tokens (cl100k_base when bucketing is on; an estimate otherwise)
 * @param strategy the resolved routing strategy
 * @param profile the config-profile header value, or null
 * @param knobs the PD tunables of the request's profile
 * @param prefixHashes chained block hashes of the prompt for the prefix index (empty when not needed)
 * @param sessionKey the x-aibrix-session-key header, or null
 */
public record RouteRequest(String model, String requestId, int promptTokens, String strategy, String profile,
        PdKnobs knobs, long[] prefixHashes, String sessionKey) {

    private static final long[] NO_HASHES = new long[0];

    public RouteRequest {
        if (prefixHashes == null) {
            prefixHashes = NO_HASHES;
        }
    }
}
