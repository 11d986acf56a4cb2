package io.pdgateway.core.config;

import io.pdgateway.core.model.RoutingConfig;
import io.pdgateway.core.predict.PrefillTimeModel;
import io.pdgateway.core.routing.DecodePolicy;
import io.pdgateway.core.routing.PrefillPolicy;
import java.util.List;

/**
 * The per-request PD tunables: the gateway-wide environment values, which a profile's routingConfig may override
 * field by field (spec, "Prompt-Length Bucketing": "Each one overrides the matching gateway environment variable for
 * that profile only; unset fields keep the environment default"). Each field is a row of {@link Knobs}, read once in
 * {@link #read}. Times are seconds; 0 disables a watchdog timer.
 */
public record PdKnobs(
        PrefillPolicy prefillScorePolicy,
        DecodePolicy decodeScorePolicy,
        double prefillRequestTimeout,
        double prefillLoadImbalanceMinSpread,
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
        double kvCacheCapacityTokens,
        PrefillTimeModel.Coefficients prefillTimeModel,
        double predictedTtftWorkWeight,
        double prefillModelFadeMillis,
        double kvTransferSetupMillis,
        double kvTransferMillisPer1kTokens,
        double decodeKvLimit,
        double decodeTpotLimitMillis,
        boolean decodeTokenLoadOutputGrowth,
        io.pdgateway.core.predict.DecodeStepModel decodeTimeModel,
        double expectedOutputTokens) {

    /** The knobs as a source sees them: the environment, or a profile over the environment's knobs. */
    public static PdKnobs read(KnobSource source) {
        return new PdKnobs(
                source.get(Knobs.PREFILL_SCORE_POLICY),
                source.get(Knobs.DECODE_SCORE_POLICY),
                source.get(Knobs.PREFILL_REQUEST_TIMEOUT),
                source.get(Knobs.PREFILL_LOAD_IMBALANCE_MIN_SPREAD),
                source.get(Knobs.DECODE_LOAD_IMBALANCE_MIN_SPREAD),
                source.get(Knobs.DECODE_THROUGHPUT_IMBALANCE_MIN_SPREAD),
                source.get(Knobs.DECODE_SCORE_RATIO_THRESHOLD),
                source.get(Knobs.DECODE_LB_WEIGHT_RUNNING),
                source.get(Knobs.DECODE_LB_WEIGHT_THROUGHPUT),
                source.get(Knobs.TOKEN_LOAD_KV_WEIGHT),
                source.get(Knobs.TOKEN_LOAD_REQUEST_COST),
                source.get(Knobs.TOKEN_LOAD_TTL_SECONDS),
                source.get(Knobs.TOKEN_LOAD_SESSION_TTL_SECONDS),
                source.get(Knobs.HYBRID_CACHE_LOAD_FACTOR),
                source.get(Knobs.MIN_MATCH_PCT),
                source.get(Knobs.DECODE_ABORT_TIMEOUT),
                source.get(Knobs.DECODE_ABORT_RETRY_DELAY),
                source.get(Knobs.DECODE_FIRST_RESPONSE_TIMEOUT),
                source.get(Knobs.DECODE_RESPONSE_TIMEOUT),
                source.get(Knobs.DECODE_STREAM_IDLE_TIMEOUT),
                source.get(Knobs.KV_CACHE_CAPACITY_TOKENS),
                source.get(Knobs.PREFILL_TIME_MODEL),
                source.get(Knobs.PREDICTED_TTFT_WORK_WEIGHT),
                source.get(Knobs.PREFILL_MODEL_FADE_MS),
                source.get(Knobs.KV_TRANSFER_SETUP_MS),
                source.get(Knobs.KV_TRANSFER_MS_PER_1K_TOKENS),
                source.get(Knobs.DECODE_KV_LIMIT),
                source.get(Knobs.DECODE_TPOT_LIMIT_MS),
                source.get(Knobs.DECODE_TOKEN_LOAD_OUTPUT_GROWTH),
                source.get(Knobs.DECODE_TIME_MODEL),
                source.get(Knobs.EXPECTED_OUTPUT_TOKENS));
    }

    /** The outcome of applying a profile: the knobs, and one line per override that was ignored. */
    public record Resolved(PdKnobs knobs, List<String> warnings) {}

    /** These knobs with every field the profile's routingConfig sets; invalid values keep this value and warn. */
    public Resolved overriddenBy(RoutingConfig config) {
        if (config == null || config.raw().isEmpty()) {
            return new Resolved(this, List.of());
        }
        ProfileOverrides overrides = new ProfileOverrides(config.raw(), this);
        return new Resolved(read(overrides), overrides.warnings());
    }
}
