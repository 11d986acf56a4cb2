package io.pdgateway.core.spec;

/**
 * Routing strategy names a user can put in the routing-strategy header, a profile, or ROUTING_ALGORITHM. The strategies
 * themselves are {@link io.pdgateway.core.routing.Strategy}.
 */
public final class SpecStrategies {
    public static final String PD = "pd";
    public static final String RANDOM = "random";
    public static final String LEAST_REQUEST = "least-request";
    public static final String PREFIX_CACHE = "prefix-cache";
    public static final String SESSION_AFFINITY = "session-affinity";

    private SpecStrategies() {}
}
