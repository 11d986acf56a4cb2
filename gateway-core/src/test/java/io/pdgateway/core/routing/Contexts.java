package io.pdgateway.core.routing;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.config.PdKnobs;
import io.pdgateway.core.model.RoutingConfig;
import io.pdgateway.core.prefix.PrefixIndex;
import java.util.Map;
import java.util.SplittableRandom;

/** Builds routing contexts for tests: default knobs unless a routingConfig-style override map is given. */
final class Contexts {
    static final PdKnobs DEFAULT_KNOBS = GatewaySettings.defaults().pd();

    private Contexts() {}

    static PdKnobs knobs(Map<String, Object> overrides) {
        return DEFAULT_KNOBS.overriddenBy(new RoutingConfig(0, 0, false, null, null, overrides)).knobs();
    }

    static RoutingContext pd(int promptTokens, LoadView load, Map<String, Object> overrides) {
        return context("pd", promptTokens, load, knobs(overrides), new long[0], null, new PrefixIndex(1000, Long.MAX_VALUE), 7);
    }

    static RoutingContext context(String strategy, int promptTokens, LoadView load, PdKnobs knobs, long[] hashes,
            String sessionKey, PrefixIndex index, long seed) {
        return new RoutingContext(new RouteRequest("m", "r", promptTokens, strategy, null, knobs, hashes, sessionKey),
                load, index, new SplittableRandom(seed), GatewaySettings.DEFAULT_STDDEV_FACTOR);
    }
}
