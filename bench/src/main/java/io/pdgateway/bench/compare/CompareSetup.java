package io.pdgateway.bench.compare;

import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.core.routing.DecodePolicy;
import io.pdgateway.core.routing.PrefillPolicy;
import io.pdgateway.core.routing.Strategy;
import io.pdgateway.core.spec.SpecStrategies;
import io.pdgateway.sim.cluster.LoopbackClusterShape;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One column of a comparison: a cluster shape and the gateway environment that selects the policy. Named
 * {@code <cluster>/<policy>}:
 * <ul>
 *   <li>{@code standard/<strategy>}: standard pods only, a non-PD strategy ({@code random}, {@code least-request},
 *       {@code prefix-cache}, {@code session-affinity}) as {@code ROUTING_ALGORITHM};</li>
 *   <li>{@code pd/<prefill>[:<decode>]}: prefill/decode rolesets, {@code ROUTING_ALGORITHM=pd} with that prefill
 *       (and decode) scoring policy;</li>
 *   <li>{@code pd+standard/<prefill>[:<decode>]}: the same plus standard pods, prompt-length bucketing on (the spec
 *       requires it for standard pods), long prompts to the standard pods and the rest to the rolesets, as in the
 *       spec's complete example. The rolesets may also overflow to them ({@code shouldPickCombined}), but only to
 *       a standard pod whose queue is small against its recent completion rate, which one busy with long prompts
 *       is not (BENCHMARKS.md, "Where pd-gateway loses").</li>
 * </ul>
 */
public record CompareSetup(String name, LoopbackClusterShape shape, Map<String, String> env) {
    /** What {@code bench compare} runs when not told otherwise: the list, one setup per policy. */
    public static final List<String> DEFAULTS = List.of("standard/random", "standard/least-request", "pd/round-robin",
            "pd/prefix_cache", "pd/least_request", "pd/token_load", "pd/hybrid_cache_load", "pd/predicted_ttft",
            "pd+standard/prefix_cache");
    /**
     * {@code pd/round-robin}: no gateway; the load generator takes the PD pairs in turn and runs both legs itself
     * ({@code PdLegsClient}). The floor a PD router must beat, measured on the same pods and sockets as the policies.
     */
    static final String ROUND_ROBIN = "round-robin";

    static final String STANDARD = "standard";
    static final String PD = "pd";
    static final String PD_PLUS_STANDARD = "pd+standard";

    public CompareSetup {
        env = Map.copyOf(env);
    }

    public static CompareSetup parse(String name, ClusterSizes sizes) {
        String text = name.trim();
        int slash = text.indexOf('/');
        if (slash < 0) {
            throw new IllegalArgumentException(usage(name));
        }
        String cluster = text.substring(0, slash);
        String policy = text.substring(slash + 1);
        Map<String, String> env = new LinkedHashMap<>();
        switch (cluster) {
            case STANDARD -> {
                if (Strategy.named(policy).map(Strategy::isPd).orElse(true)) {
                    throw new IllegalArgumentException("'" + name + "': a standard cluster takes a non-PD strategy, one of "
                            + Strategy.specNames().stream().filter(s -> !Strategy.PD.specName().equals(s)).toList());
                }
                env.put(SpecEnv.ROUTING_ALGORITHM, policy);
                return new CompareSetup(text, new LoopbackClusterShape(0, 1, 1, sizes.standardPods(), null,
                        LoopbackClusterShape.COMBINED, sizes.timing(), sizes.timeScale()), env);
            }
            case PD, PD_PLUS_STANDARD -> {
                if (cluster.equals(PD) && policy.equals(ROUND_ROBIN)) {
                    return new CompareSetup(text, pdShape(sizes, false), Map.of());
                }
                String[] parts = policy.split(":", 2);
                if (PrefillPolicy.named(parts[0]).isEmpty()) {
                    throw new IllegalArgumentException("'" + name + "': unknown prefill policy, one of "
                            + PrefillPolicy.specNames());
                }
                if (parts.length == 2 && DecodePolicy.named(parts[1]).isEmpty()) {
                    throw new IllegalArgumentException("'" + name + "': unknown decode policy, one of "
                            + DecodePolicy.specNames());
                }
                env.put(SpecEnv.ROUTING_ALGORITHM, SpecStrategies.PD);
                env.put(SpecEnv.PREFILL_SCORE_POLICY, parts[0]);
                if (parts.length == 2) {
                    env.put(SpecEnv.DECODE_SCORE_POLICY, parts[1]);
                }
                boolean overflow = cluster.equals(PD_PLUS_STANDARD);
                if (overflow) {
                    env.put(SpecEnv.PROMPT_LENGTH_BUCKETING, "true");
                }
                return new CompareSetup(text, pdShape(sizes, overflow), env);
            }
            default -> throw new IllegalArgumentException(usage(name));
        }
    }

    /** Whether the load generator, not a gateway, routes: round-robin over the pairs, both legs run by the client. */
    public boolean clientRoundRobin() {
        return name.equals(PD + "/" + ROUND_ROBIN);
    }

    private static LoopbackClusterShape pdShape(ClusterSizes sizes, boolean overflow) {
        int split = sizes.standardMinPromptTokens();
        return new LoopbackClusterShape(sizes.rolesets(), sizes.prefillPerRoleset(), sizes.decodePerRoleset(),
                overflow ? sizes.overflowPods() : 0, overflow ? LoopbackClusterShape.pdBelow(split) : null,
                overflow ? LoopbackClusterShape.standardFrom(split) : null, sizes.timing(), sizes.timeScale());
    }

    public String describe() {
        return shape.describe() + ", " + env;
    }

    private static String usage(String name) {
        return "'" + name + "' is not a setup: use standard/<strategy>, pd/<prefill policy>[:<decode policy>], "
                + "pd/round-robin (no gateway) or pd+standard/<prefill policy>[:<decode policy>]";
    }
}
