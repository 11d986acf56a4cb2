package io.pdgateway.core.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.bucket.BucketPlan;
import io.pdgateway.core.cache.CachedPrefixes;
import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.config.PdKnobs;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.RoutingConfig;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/** Builds routing contexts for tests: default knobs unless a routingConfig-style override map is given. */
public final class Contexts {
    static final PdKnobs DEFAULT_KNOBS = GatewaySettings.defaults().pd();

    private Contexts() {}

    static PdKnobs knobs(Map<String, Object> overrides) {
        return DEFAULT_KNOBS.overriddenBy(new RoutingConfig(0, 0, false, null, null, overrides)).knobs();
    }

    static RoutingContext pd(int promptTokens, LoadView load, Map<String, Object> overrides) {
        return context(Strategy.PD, promptTokens, load, knobs(overrides), new long[0], null, null, 7);
    }

    static RoutingContext context(String strategy, int promptTokens, LoadView load, PdKnobs knobs, long[] hashes,
            String sessionKey, PrefixLookup index, long seed) {
        return context(Strategy.named(strategy).orElseThrow(), promptTokens, load, knobs, hashes, sessionKey, index,
                seed);
    }

    static RoutingContext context(Strategy strategy, int promptTokens, LoadView load, PdKnobs knobs, long[] hashes,
            String sessionKey, PrefixLookup index, long seed) {
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

    /** A request for a stage table: pd, default knobs, a 100-token prompt of {@link Request#PROMPT_BLOCKS} blocks. */
    public static Request request() {
        return new Request();
    }

    /**
     * One request and what the stages see around it, built fluently; {@link #over} makes the context for a list of
     * pods. Knobs come from an environment (gateway-wide) and then a profile's routingConfig, as in production, and
     * the knobs a rule rejected are remembered so that invalid-config rows can say which ones they expect.
     */
    public static final class Request {
        /** A prompt of 10 full blocks, so holding k blocks is a k × 10 % match. */
        public static final int PROMPT_BLOCKS = 10;
        private static final long[] PROMPT = CachedPrefixes.prompt(PROMPT_BLOCKS, 1);

        /** The block hashes of every table's prompt. */
        public static long[] promptHashes() {
            return PROMPT.clone();
        }

        private Strategy strategy = Strategy.PD;
        private Map<String, String> env = Map.of();
        private Map<String, Object> profile = Map.of();
        private int promptTokens = 100;
        private final Map<String, Integer> held = new LinkedHashMap<>();
        private boolean hashes = true;
        private boolean index = true;
        private String sessionKey;
        private LoadView load = LoadView.IDLE;
        private BucketPlan plan = BucketPlan.EMPTY;
        private final Set<String> excluded = new HashSet<>();
        private final Set<String> rejected = new HashSet<>();

        private Request() {}

        public Request strategy(Strategy strategy) {
            this.strategy = strategy;
            return this;
        }

        /** Gateway environment variables (the spec's names). */
        public Request env(Map<String, String> env) {
            this.env = env;
            return this;
        }

        /** The request profile's routingConfig fields. */
        public Request profile(Map<String, Object> routingConfig) {
            this.profile = routingConfig;
            return this;
        }

        /** Shorthand for a one-field profile. */
        public Request profile(String field, Object value) {
            return profile(Map.of(field, value));
        }

        public Request promptTokens(int tokens) {
            this.promptTokens = tokens;
            return this;
        }

        /** The pod named {@code pod} holds the first {@code blocks} blocks of the prompt in the prefix index. */
        public Request holding(String pod, int blocks) {
            held.put(pod, blocks);
            return this;
        }

        /** The request carries no prefix hashes (a prompt shorter than one block, or a policy that needs none). */
        public Request noHashes() {
            this.hashes = false;
            return this;
        }

        /** The context has no prefix index at all. */
        public Request noIndex() {
            this.index = false;
            return this;
        }

        public Request sessionKey(String key) {
            this.sessionKey = key;
            return this;
        }

        public Request load(LoadView load) {
            this.load = load;
            return this;
        }

        public Request plan(BucketPlan plan) {
            this.plan = plan;
            return this;
        }

        /** The pod named {@code pod} is excluded (it already failed this request). */
        public Request excluding(String pod) {
            excluded.add(pod);
            return this;
        }

        /** An invalid-config row: the rule of this routingConfig field or environment variable rejects its value. */
        public Request rejects(String knob) {
            rejected.add(knob);
            return this;
        }

        /**
         * Checks that the knobs a rule rejected are exactly the ones this request says it expects with {@link
         * #rejects}: an invalid-config row must really be invalid, and every other row valid.
         */
        public void checkRejections(String row) {
            assertThat(rejections()).as("knobs rejected in row '%s'", row).isEqualTo(rejected);
        }

        /** The knobs whose value a rule rejected (each kept its default), by routingConfig field or variable name. */
        private Set<String> rejections() {
            GatewaySettings settings = GatewaySettings.fromEnv(env);
            List<String> warnings = new ArrayList<>(settings.warnings());
            warnings.addAll(settings.pd().overriddenBy(routingConfig()).warnings());
            Set<String> knobs = new HashSet<>();
            for (String warning : warnings) {
                knobs.add(warning.replaceFirst("^routingConfig\\.", "").replaceFirst("[= ].*$", ""));
            }
            return knobs;
        }

        public PdKnobs knobs() {
            return GatewaySettings.fromEnv(env).pd().overriddenBy(routingConfig()).knobs();
        }

        /** The context of this request over these pods (the model's pods too), with randomness from {@code seed}. */
        public RoutingContext over(List<Pod> pods, long seed) {
            GatewaySettings settings = GatewaySettings.fromEnv(env);
            long[] prompt = PROMPT;
            ModelPods model = ModelPods.of("m", pods);
            PrefixLookup prefixIndex = null;
            if (index) {
                CachedPrefixes caches = new CachedPrefixes();
                for (Map.Entry<String, Integer> holder : held.entrySet()) {
                    caches.holding(named(pods, holder.getKey()), prompt, holder.getValue());
                }
                prefixIndex = caches.lookup(hashes ? prompt : new long[0], model);
            }
            Set<String> excludedIds = new HashSet<>();
            for (String name : excluded) {
                excludedIds.add(named(pods, name).id());
            }
            RouteRequest request = new RouteRequest("m", "r", promptTokens, strategy, null, knobs(),
                    hashes ? prompt : new long[0], sessionKey, excludedIds);
            return new RoutingContext(request, model, load, prefixIndex, new SplittableRandom(seed),
                    settings.routing().stddevFactor(), plan);
        }

        private RoutingConfig routingConfig() {
            return new RoutingConfig(0, 0, false, null, null, profile);
        }

        private static Pod named(List<Pod> pods, String name) {
            for (Pod pod : pods) {
                if (pod.name().equals(name)) {
                    return pod;
                }
            }
            throw new IllegalArgumentException("no pod " + name + " among " + pods);
        }
    }
}
