package io.pdgateway.core.routing;

import io.pdgateway.core.config.PdKnobs;
import io.pdgateway.core.model.Pod;
import java.util.HashSet;
import java.util.Set;

/**
 * What routing needs to know about one request; built at the edge from the HTTP request.
 *
 * @param promptTokens the prompt's length in tokens (cl100k_base when bucketing is on; an estimate otherwise)
 * @param strategy the resolved routing strategy
 * @param profile the config-profile header value, or null
 * @param knobs the PD tunables of the request's profile
 * @param prefixHashes chained block hashes of the prompt for the prefix index (empty when not needed)
 * @param sessionKey the x-aibrix-session-key header, or null
 * @param excludedPods ids (namespace/name) of pods this decision must not use, e.g. the prefill pod that already
 *     failed this request; empty for a first decision
 * @param pairRefusal why the body cannot go to a prefill/decode pair (an engine's hand-off that cannot carry it), so
 *     the decision leaves every pair out and takes a standard pod; null when it can
 */
public record RouteRequest(String model, String requestId, int promptTokens, Strategy strategy, String profile,
        PdKnobs knobs, long[] prefixHashes, String sessionKey, Set<String> excludedPods, String pairRefusal) {

    private static final long[] NO_HASHES = new long[0];

    public RouteRequest {
        if (prefixHashes == null) {
            prefixHashes = NO_HASHES;
        }
        excludedPods = excludedPods == null ? Set.of() : Set.copyOf(excludedPods);
    }

    /** A body any pod can carry. */
    public RouteRequest(String model, String requestId, int promptTokens, Strategy strategy, String profile,
            PdKnobs knobs, long[] prefixHashes, String sessionKey, Set<String> excludedPods) {
        this(model, requestId, promptTokens, strategy, profile, knobs, prefixHashes, sessionKey, excludedPods, null);
    }

    /** A first decision: no pod excluded. */
    public RouteRequest(String model, String requestId, int promptTokens, Strategy strategy, String profile,
            PdKnobs knobs, long[] prefixHashes, String sessionKey) {
        this(model, requestId, promptTokens, strategy, profile, knobs, prefixHashes, sessionKey, Set.of());
    }

    /** The same request, to be routed again without {@code pod} (and without any pod excluded before). */
    public RouteRequest excluding(Pod pod) {
        Set<String> excluded = new HashSet<>(excludedPods);
        excluded.add(pod.id());
        return new RouteRequest(model, requestId, promptTokens, strategy, profile, knobs, prefixHashes, sessionKey,
                excluded, pairRefusal);
    }

    /** Whether this decision may use the pod. */
    public boolean allows(Pod pod) {
        return excludedPods.isEmpty() || !excludedPods.contains(pod.id());
    }
}
