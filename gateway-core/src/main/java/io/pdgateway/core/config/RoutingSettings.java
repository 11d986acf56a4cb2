package io.pdgateway.core.config;

import io.pdgateway.core.routing.Strategy;

/**
 * What the routing session reads: the default strategy, bucketing and adaptive bucket serving, the prefix cache's
 * tokenizer and stddev filter, the session table's bound, and the PD knobs every profile starts from.
 *
 * @param stddevFactor AIBRIX_PREFIX_CACHE_STANDARD_DEVIATION_FACTOR
 * @param bucketServe AIBRIX_BUCKET_SERVE as set; {@link #adaptiveBuckets()} says whether it is in effect
 * @param prefixCacheBlockTokens tokens per block of the prefix-cache model
 */
public record RoutingSettings(Strategy defaultStrategy, boolean promptLengthBucketing, boolean bucketServe,
        BucketServeMode bucketServeMode, double stddevFactor, PrefixTokenizerType prefixCacheTokenizer,
        int tokenLoadMaxSessions, int prefixCacheBlockTokens, PdKnobs pd) {

    public static RoutingSettings read(KnobSource env) {
        return new RoutingSettings(env.get(Knobs.ROUTING_ALGORITHM), env.get(Knobs.PROMPT_LENGTH_BUCKETING),
                env.get(Knobs.BUCKET_SERVE), env.get(Knobs.BUCKET_SERVE_MODE), env.get(Knobs.STDDEV_FACTOR),
                env.get(Knobs.PREFIX_CACHE_TOKENIZER), env.get(Knobs.TOKEN_LOAD_MAX_SESSIONS).intValue(),
                env.get(Knobs.PREFIX_CACHE_BLOCK_TOKENS).intValue(), PdKnobs.read(env));
    }

    /** Spec: adaptive bucket serving works on top of bucketing, which must also be on. */
    public boolean adaptiveBuckets() {
        return bucketServe && promptLengthBucketing;
    }

    public RoutingSettings withDefaultStrategy(Strategy strategy) {
        return new RoutingSettings(strategy, promptLengthBucketing, bucketServe, bucketServeMode, stddevFactor,
                prefixCacheTokenizer, tokenLoadMaxSessions, prefixCacheBlockTokens, pd);
    }

    public RoutingSettings withPd(PdKnobs knobs) {
        return new RoutingSettings(defaultStrategy, promptLengthBucketing, bucketServe, bucketServeMode, stddevFactor,
                prefixCacheTokenizer, tokenLoadMaxSessions, prefixCacheBlockTokens, knobs);
    }
}
