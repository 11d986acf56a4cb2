package io.pdgateway.routingsim.policy;

import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.core.spec.SpecPolicies;
import io.pdgateway.core.spec.SpecStrategies;
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
    static final String PD_PREFIX = SpecStrategies.PD + ":";

    /** The default run: the floor, every prefill policy with its natural decode policy, the ceiling. */
    public static final List<String> DEFAULT = List.of(FLOOR,
            "pd:prefix_cache:load_balancing",
            "pd:least_request:least_request",
            "pd:conductor:conductor",
            "pd:token_load:token_load",
            "pd:hybrid_cache_load:token_load",
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
                    setup -> new RoundRobinPolicy(setup.settings().promptLengthBucketing()));
        }
        if (name.equals(CEILING)) {
            return new PolicySpec(CEILING, "ceiling", "most SLO slack from the engines' true state", Map.of(), null,
                    setup -> new OraclePolicy(setup.settings().promptLengthBucketing(), setup.cluster(),
                            setup.workload(), setup.slo()));
        }
        if (name.equals(SpecStrategies.PD)) {
            return pd(SpecPolicies.DEFAULT_PREFILL, SpecPolicies.DEFAULT_DECODE);
        }
        if (name.startsWith(PD_PREFIX)) {
            String[] parts = name.substring(PD_PREFIX.length()).split(":");
            if (parts.length == 2 && SpecPolicies.PREFILL.contains(parts[0]) && SpecPolicies.DECODE.contains(parts[1])) {
                return pd(parts[0], parts[1]);
            }
            throw new IllegalArgumentException("policy " + rawName + ": expected pd:<prefill>:<decode> with prefill one "
                    + "of " + SpecPolicies.PREFILL + " and decode one of " + SpecPolicies.DECODE);
        }
        if (SpecStrategies.isSupported(name)) {
            return new PolicySpec(name, "production", "routing-strategy: " + name + " (standard pods only)", Map.of(),
                    name, setup -> new CascadePolicy(setup.settings()));
        }
        throw new IllegalArgumentException("policy " + rawName + " not found; known: " + FLOOR + ", " + CEILING
                + ", pd, pd:<prefill>:<decode> (prefill " + SpecPolicies.PREFILL + ", decode " + SpecPolicies.DECODE
                + "), " + String.join(", ", SpecStrategies.SUPPORTED));
    }

    private static PolicySpec pd(String prefill, String decode) {
        return new PolicySpec(PD_PREFIX + prefill + ":" + decode, "production",
                "production cascade, prefill " + prefill + ", decode " + decode,
                Map.of(SpecEnv.PREFILL_SCORE_POLICY, prefill, SpecEnv.DECODE_SCORE_POLICY, decode), null,
                setup -> new CascadePolicy(setup.settings()));
    }
}
