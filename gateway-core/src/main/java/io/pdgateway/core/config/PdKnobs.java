package io.pdgateway.core.config;

import io.pdgateway.core.model.RoutingConfig;
import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.core.spec.SpecPolicies;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The per-request PD tunables: the gateway-wide environment values, which a profile's routingConfig may override
 * field by field (spec, "Prompt-Length Bucketing": "Each one overrides the matching gateway environment variable for
 * that profile only; unset fields keep the environment default"). Times are seconds, 0 disables a watchdog timer.
 * decodeTokenLoadOutputGrowth is environment-only (AIBRIX_DECODE_TOKEN_LOAD_OUTPUT_GROWTH).
 */
public record PdKnobs(
        String prefillScorePolicy,
        String decodeScorePolicy,
        double prefillRequestTimeout,
        int prefillLoadImbalanceMinSpread,
        double decodeLoadImbalanceMinSpread,
        double decodeThroughputImbalanceMinSpread,
        double decodeScoreRatioThreshold,
        double decodeLbWeightRunning,
        double decodeLbWeightThroughput,
        double tokenLoadKvWeight,
        double tokenLoadRequestCost,
        double tokenLoadTtlSeconds,
        double tokenLoadSessionTtlSeconds,
        double hybridCacheLoadFactor,
        double minMatchPct,
        double decodeAbortTimeout,
        double decodeAbortRetryDelay,
        double decodeFirstResponseTimeout,
        double decodeResponseTimeout,
        double decodeStreamIdleTimeout,
        boolean decodeTokenLoadOutputGrowth) {

    // Defaults, each from the spec's "Environment Variables" table unless said otherwise.
    public static final double DEFAULT_PREFILL_REQUEST_TIMEOUT = 30;
    public static final int DEFAULT_PREFILL_LOAD_IMBALANCE_MIN_SPREAD = 16;
    public static final double DEFAULT_DECODE_LOAD_IMBALANCE_MIN_SPREAD = 16;
    public static final double DEFAULT_DECODE_THROUGHPUT_IMBALANCE_MIN_SPREAD = 2048;
    public static final double DEFAULT_DECODE_SCORE_RATIO_THRESHOLD = 1.5;
    public static final double DEFAULT_DECODE_LB_WEIGHT = 1.0;
    public static final double DEFAULT_TOKEN_LOAD_KV_WEIGHT = 0.3;
    public static final double DEFAULT_TOKEN_LOAD_REQUEST_COST = 3500;
    public static final double DEFAULT_TOKEN_LOAD_TTL_SECONDS = 3600;
    public static final double DEFAULT_TOKEN_LOAD_SESSION_TTL_SECONDS = 1800;
    public static final double DEFAULT_HYBRID_CACHE_LOAD_FACTOR = 0.5;
    public static final double DEFAULT_MIN_MATCH_PCT = 0;
    /** Spec, "SGLang Decode Watchdog". */
    public static final double DEFAULT_DECODE_FIRST_RESPONSE_TIMEOUT = 60;
    public static final double DEFAULT_DECODE_RESPONSE_TIMEOUT = 0;
    public static final double DEFAULT_DECODE_STREAM_IDLE_TIMEOUT = 120;
    /**
     * Not given by the spec: an abort is a tiny local call, so 2 s is far beyond a healthy pod's answer while still
     * bounding how long a hung pod can hold the gateway's cleanup.
     */
    public static final double DEFAULT_DECODE_ABORT_TIMEOUT = 2;
    /** Not given by the spec: one retry after a short pause covers a pod that is momentarily busy. */
    public static final double DEFAULT_DECODE_ABORT_RETRY_DELAY = 0.2;

    /** The environment's knobs; every value that does not parse or is out of range keeps its default with a warning. */
    public static PdKnobs fromEnv(EnvReader env) {
        return new PdKnobs(
                policy(env, SpecEnv.PREFILL_SCORE_POLICY, SpecPolicies.PREFILL, SpecPolicies.DEFAULT_PREFILL),
                policy(env, SpecEnv.DECODE_SCORE_POLICY, SpecPolicies.DECODE, SpecPolicies.DEFAULT_DECODE),
                env.positive(SpecEnv.PREFILL_REQUEST_TIMEOUT, DEFAULT_PREFILL_REQUEST_TIMEOUT),
                (int) env.positive(SpecEnv.PREFILL_LOAD_IMBALANCE_MIN_SPREAD, DEFAULT_PREFILL_LOAD_IMBALANCE_MIN_SPREAD),
                env.positive(SpecEnv.DECODE_LOAD_IMBALANCE_MIN_SPREAD, DEFAULT_DECODE_LOAD_IMBALANCE_MIN_SPREAD),
                env.positive(SpecEnv.DECODE_THROUGHPUT_IMBALANCE_MIN_SPREAD, DEFAULT_DECODE_THROUGHPUT_IMBALANCE_MIN_SPREAD),
                env.positive(SpecEnv.DECODE_SCORE_RATIO_THRESHOLD, DEFAULT_DECODE_SCORE_RATIO_THRESHOLD),
                env.nonNegative(SpecEnv.DECODE_LB_WEIGHT_RUNNING, DEFAULT_DECODE_LB_WEIGHT),
                env.nonNegative(SpecEnv.DECODE_LB_WEIGHT_THROUGHPUT, DEFAULT_DECODE_LB_WEIGHT),
                env.positive(SpecEnv.TOKEN_LOAD_KV_WEIGHT, DEFAULT_TOKEN_LOAD_KV_WEIGHT),
                env.positive(SpecEnv.TOKEN_LOAD_REQUEST_COST, DEFAULT_TOKEN_LOAD_REQUEST_COST),
                env.positive(SpecEnv.TOKEN_LOAD_TTL_SECONDS, DEFAULT_TOKEN_LOAD_TTL_SECONDS),
                env.nonNegative(SpecEnv.TOKEN_LOAD_SESSION_TTL_SECONDS, DEFAULT_TOKEN_LOAD_SESSION_TTL_SECONDS),
                env.inRange(SpecEnv.HYBRID_CACHE_LOAD_FACTOR, DEFAULT_HYBRID_CACHE_LOAD_FACTOR, 0, 1),
                env.inRange(SpecEnv.MIN_MATCH_PCT, DEFAULT_MIN_MATCH_PCT, 0, 100),
                DEFAULT_DECODE_ABORT_TIMEOUT,
                DEFAULT_DECODE_ABORT_RETRY_DELAY,
                env.nonNegative(SpecEnv.DECODE_FIRST_RESPONSE_TIMEOUT, DEFAULT_DECODE_FIRST_RESPONSE_TIMEOUT),
                env.nonNegative(SpecEnv.DECODE_RESPONSE_TIMEOUT, DEFAULT_DECODE_RESPONSE_TIMEOUT),
                env.nonNegative(SpecEnv.DECODE_STREAM_IDLE_TIMEOUT, DEFAULT_DECODE_STREAM_IDLE_TIMEOUT),
                env.bool(SpecEnv.DECODE_TOKEN_LOAD_OUTPUT_GROWTH, true));
    }

    private static String policy(EnvReader env, String name, List<String> known, String fallback) {
        String value = env.string(name, fallback).toLowerCase(Locale.ROOT);
        if (known.contains(value)) {
            return value;
        }
        env.warn(name + "=" + value + " is not one of " + known + "; using " + fallback);
        return fallback;
    }

    /** The outcome of applying a profile: the knobs, and one line per override that was ignored. */
    public record Resolved(PdKnobs knobs, List<String> warnings) {}

    /** These knobs with every field the profile's routingConfig sets; invalid values keep this value and warn. */
    public Resolved overriddenBy(RoutingConfig config) {
        if (config == null || config.raw().isEmpty()) {
            return new Resolved(this, List.of());
        }
        Overrides o = new Overrides(config.raw());
        PdKnobs knobs = new PdKnobs(
                o.policy("prefillScorePolicy", SpecPolicies.PREFILL, prefillScorePolicy),
                o.policy("decodeScorePolicy", SpecPolicies.DECODE, decodeScorePolicy),
                o.number("prefillRequestTimeout", prefillRequestTimeout, false),
                (int) o.number("prefillLoadImbalanceMinSpread", prefillLoadImbalanceMinSpread, false),
                o.number("decodeLoadImbalanceMinSpread", decodeLoadImbalanceMinSpread, false),
                o.number("decodeThroughputImbalanceMinSpread", decodeThroughputImbalanceMinSpread, false),
                o.number("decodeScoreRatioThreshold", decodeScoreRatioThreshold, false),
                o.number("decodeLBWeightRunning", decodeLbWeightRunning, true),
                o.number("decodeLBWeightThroughput", decodeLbWeightThroughput, true),
                o.number("tokenLoadKVWeight", tokenLoadKvWeight, false),
                o.number("tokenLoadRequestCost", tokenLoadRequestCost, false),
                o.number("tokenLoadTTLSeconds", tokenLoadTtlSeconds, false),
                o.number("tokenLoadSessionTTLSeconds", tokenLoadSessionTtlSeconds, true),
                o.fraction("hybridCacheLoadFactor", hybridCacheLoadFactor, 1),
                o.fraction("minMatchPct", minMatchPct, 100),
                o.number("decodeAbortTimeout", decodeAbortTimeout, false),
                o.number("decodeAbortRetryDelay", decodeAbortRetryDelay, true),
                o.number("decodeFirstResponseTimeout", decodeFirstResponseTimeout, true),
                o.number("decodeResponseTimeout", decodeResponseTimeout, true),
                o.number("decodeStreamIdleTimeout", decodeStreamIdleTimeout, true),
                decodeTokenLoadOutputGrowth);
        return new Resolved(knobs, o.warnings);
    }

    /** Reads override values out of a routingConfig map, collecting what it had to ignore. */
    private static final class Overrides {
        private final Map<String, Object> raw;
        private final List<String> warnings = new ArrayList<>();

        Overrides(Map<String, Object> raw) {
            this.raw = raw;
        }

        String policy(String key, List<String> known, String fallback) {
            Object value = raw.get(key);
            if (value == null) {
                return fallback;
            }
            String name = value.toString().trim().toLowerCase(Locale.ROOT);
            if (known.contains(name)) {
                return name;
            }
            warnings.add("routingConfig." + key + "=" + value + " is not one of " + known + "; using " + fallback);
            return fallback;
        }

        double number(String key, double fallback, boolean zeroAllowed) {
            Object value = raw.get(key);
            if (value == null) {
                return fallback;
            }
            if (value instanceof Number n && Double.isFinite(n.doubleValue())
                    && (n.doubleValue() > 0 || zeroAllowed && n.doubleValue() == 0)) {
                return n.doubleValue();
            }
            warnings.add("routingConfig." + key + "=" + value + " must be a " + (zeroAllowed ? "number >= 0" : "positive number")
                    + "; using " + fallback);
            return fallback;
        }

        double fraction(String key, double fallback, double max) {
            Object value = raw.get(key);
            if (value == null) {
                return fallback;
            }
            if (value instanceof Number n && n.doubleValue() >= 0 && n.doubleValue() <= max) {
                return n.doubleValue();
            }
            warnings.add("routingConfig." + key + "=" + value + " must be within 0.." + max + "; using " + fallback);
            return fallback;
        }
    }
}
