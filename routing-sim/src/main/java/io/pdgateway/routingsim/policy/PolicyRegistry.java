package io.pdgateway.routingsim.policy;

import io.pdgateway.core.session.RoutingSession;
import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.routing.DecodePolicy;
import io.pdgateway.core.routing.PrefillPolicy;
import io.pdgateway.core.routing.Strategy;
import java.util.Optional;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Policy name → how to run it (Caffeine's Registry). Names:
 * <ul>
 *   <li>{@code round-robin}: the floor ({@link RoundRobinPolicy});</li>
 *   <li>{@code oracle}: the ceiling ({@link OraclePolicy});</li>
 *   <li>{@code pd:<prefill policy>:<decode policy>}: the production cascade with AIBRIX_PREFILL_SCORE_POLICY and
 *       AIBRIX_DECODE_SCORE_POLICY set, e.g. {@code pd:prefix_cache:load_balancing} (the gateway's defaults, also
 *       plain {@code pd});</li>
 *   <li>{@code random}, {@code least-request}, {@code prefix-cache}, {@code session-affinity}: the non-PD strategies
 *       (as the routing-strategy header), which only use standard pods.</li>
 * </ul>
 * An unknown name fails with the list of known ones (the simulator fails fast; the gateway logs and falls back).
 */
public final class PolicyRegistry {
    public static final String FLOOR = "round-robin";
    public static final String CEILING = "oracle";
    static final String PD_PREFIX = Strategy.PD.specName() + ":";

    /** The default run: the floor, every prefill policy with its natural decode policy, the ceiling. */
    public static final List<String> DEFAULT = List.of(FLOOR,
            "pd:prefix_cache:load_balancing",
            "pd:least_request:least_request",
            "pd:conductor:conductor",
            "pd:token_load:token_load",
            "pd:hybrid_cache_load:token_load",
            "pd:predicted_ttft:token_load",
            CEILING);

    private PolicyRegistry() {}

    public static List<PolicySpec> resolve(List<String> names) {
        List<PolicySpec> specs = new ArrayList<>();
        for (String name : names) {
            specs.add(resolve(name));
        }
        return specs;
    }

    public static PolicySpec resolve(String rawName) {
        String name = rawName.trim().toLowerCase(Locale.ROOT);
        if (name.equals(FLOOR)) {
            return new PolicySpec(FLOOR, "floor", "round-robin over eligible pairs, no load signal", Map.of(), null,
                    setup -> new RoundRobinPolicy(setup.settings().routing().promptLengthBucketing()));
        }
        if (name.equals(CEILING)) {
            return new PolicySpec(CEILING, "ceiling", "most SLO slack from the engines' true state", Map.of(), null,
                    setup -> new OraclePolicy(setup.settings().routing().promptLengthBucketing(), setup.cluster(),
                            setup.workload(), setup.slo()));
        }
        Optional<Strategy> strategy = Strategy.named(name);
        if (strategy.filter(Strategy::isPd).isPresent()) {
            GatewaySettings defaults = GatewaySettings.defaults();
            return pd(defaults.pd().prefillScorePolicy(), defaults.pd().decodeScorePolicy());
        }
        if (name.startsWith(PD_PREFIX)) {
            String[] parts = name.substring(PD_PREFIX.length()).split(":");
            Optional<PrefillPolicy> prefill = PrefillPolicy.named(parts[0]);
            Optional<DecodePolicy> decode = parts.length == 2 ? DecodePolicy.named(parts[1]) : Optional.empty();
            if (parts.length == 2 && prefill.isPresent() && decode.isPresent()) {
                return pd(prefill.get(), decode.get());
            }
            throw new IllegalArgumentException("policy " + rawName + ": expected pd:<prefill>:<decode> with prefill one "
                    + "of " + PrefillPolicy.specNames() + " and decode one of " + DecodePolicy.specNames());
        }
        if (strategy.isPresent()) {
            return new PolicySpec(name, "production", "routing-strategy: " + name + " (standard pods only)", Map.of(),
                    name, setup -> RoutingSession.productionRouter(setup.settings().routing()));
        }
        throw new IllegalArgumentException("policy " + rawName + " not found; known: " + FLOOR + ", " + CEILING
                + ", pd, pd:<prefill>:<decode> (prefill " + PrefillPolicy.specNames() + ", decode "
                + DecodePolicy.specNames() + "), " + String.join(", ", Strategy.specNames()));
    }

    private static PolicySpec pd(PrefillPolicy prefillPolicy, DecodePolicy decodePolicy) {
        String prefill = prefillPolicy.specName();
        String decode = decodePolicy.specName();
        return new PolicySpec(PD_PREFIX + prefill + ":" + decode, "production",
                "production cascade, prefill " + prefill + ", decode " + decode,
                Map.of(SpecEnv.PREFILL_SCORE_POLICY, prefill, SpecEnv.DECODE_SCORE_POLICY, decode), null,
                setup -> RoutingSession.productionRouter(setup.settings().routing()));
    }
}
