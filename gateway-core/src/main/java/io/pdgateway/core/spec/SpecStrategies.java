package io.pdgateway.core.spec;

import java.util.List;

/** Routing strategy names a user can put in the routing-strategy header, a profile, or ROUTING_ALGORITHM. */
public final class SpecStrategies {
    public static final String PD = "pd";
    public static final String RANDOM = "random";
    public static final String LEAST_REQUEST = "least-request";
    public static final String PREFIX_CACHE = "prefix-cache";
    public static final String SESSION_AFFINITY = "session-affinity";

    /** Strategies this build can route with; anything else is an unknown strategy. */
    public static final List<String> SUPPORTED = List.of(PD, RANDOM, LEAST_REQUEST, PREFIX_CACHE, SESSION_AFFINITY);

    /** design.md §2: ROUTING_ALGORITHM defaults to random. */
    public static final String DEFAULT = RANDOM;

    public static boolean isSupported(String name) {
        return name != null && SUPPORTED.contains(name);
    }

    private SpecStrategies() {}
}
