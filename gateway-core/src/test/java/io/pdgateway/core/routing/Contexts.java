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
        return context(Strategy.PD, promptTokens, load, knobs(overrides), new long[0], null, new PrefixIndex(1000, Long.MAX_VALUE), 7);
    }

    static RoutingContext context(String strategy, int promptTokens, LoadView load, PdKnobs knobs, long[] hashes,
            String sessionKey, PrefixIndex index, long seed) {
        return context(Strategy.named(strategy).orElseThrow(), promptTokens, load, knobs, hashes, sessionKey, index,
                seed);
    }

    static RoutingContext context(Strategy strategy, int promptTokens, LoadView load, PdKnobs knobs, long[] hashes,
            String sessionKey, PrefixIndex index, long seed) {
        return new RoutingContext(new RouteRequest("m", "r", promptTokens, strategy, null, knobs, hashes, sessionKey),
                null, load, index, new SplittableRandom(seed), 1.0);
    }

    /** The production router with bucketing on or off (and adaptive bucket serving with it when asked). */
    static Router router(boolean bucketing, boolean bucketServe) {
        return new Router(PdCascade.of(GatewaySettings.fromEnv(Map.of("AIBRIX_PROMPT_LENGTH_BUCKETING",
                Boolean.toString(bucketing), "AIBRIX_BUCKET_SERVE", Boolean.toString(bucketServe))).routing()));
    }

    static Router router(boolean bucketing) {
        return router(bucketing, false);
    }
}
