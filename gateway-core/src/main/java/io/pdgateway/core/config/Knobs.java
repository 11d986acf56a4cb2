package io.pdgateway.core.config;

import io.pdgateway.core.predict.PrefillTimeModel;
import io.pdgateway.core.routing.DecodePolicy;
import io.pdgateway.core.routing.PrefillPolicy;
import io.pdgateway.core.routing.Strategy;
import io.pdgateway.core.spec.SpecEnv;
import java.util.List;

/**
 * Every setting of the gateway, one row each: environment variable, per-profile routingConfig field (PD knobs only),
 * default and rule. The environment, the profile overrides and the settings records all read this table. Defaults
 * come from the spec's "Environment Variables" table unless the row says otherwise.
 */
public final class Knobs {
    private Knobs() {}

    // ---- Routing (RoutingSettings) ----
    /** design.md §2: an unknown strategy stops start-up. Matched case-insensitively, unlike the header. */
    public static final Knob<Strategy> ROUTING_ALGORITHM = Knob.fatal(SpecEnv.ROUTING_ALGORITHM, Strategy.DEFAULT,
            new KnobRule<>() {
                @Override
                public Strategy fromText(String text) {
                    return Strategy.named(text.toLowerCase(java.util.Locale.ROOT)).orElse(null);
                }

                @Override
                public Strategy fromJson(Object json) {
                    return null;
                }

                @Override
                public String requirement() {
                    return "is not a routing strategy this gateway knows; supported: "
                            + String.join(", ", Strategy.specNames());
                }
            });
    public static final Knob<Boolean> PROMPT_LENGTH_BUCKETING = Knob.env(SpecEnv.PROMPT_LENGTH_BUCKETING, false,
            KnobRule.bool());
    public static final Knob<Boolean> BUCKET_SERVE = Knob.env(SpecEnv.BUCKET_SERVE, false, KnobRule.bool());
    public static final Knob<BucketServeMode> BUCKET_SERVE_MODE = Knob.env(SpecEnv.BUCKET_SERVE_MODE,
            BucketServeMode.THROUGHPUT, KnobRule.oneOf(BucketServeMode::named, BucketServeMode.specNames()));
    /** Reference §3: defaults to 1. */
    public static final Knob<Double> STDDEV_FACTOR = Knob.env(SpecEnv.PREFIX_CACHE_STANDARD_DEVIATION_FACTOR, 1.0,
            KnobRule.positive());
    /** Reference §7: character is upstream's default. */
    public static final Knob<PrefixTokenizerType> PREFIX_CACHE_TOKENIZER = Knob.env(
            SpecEnv.PREFIX_CACHE_TOKENIZER_TYPE, PrefixTokenizerType.CHARACTER,
            KnobRule.oneOf(PrefixTokenizerType::named, PrefixTokenizerType.specNames()));
    public static final Knob<Double> TOKEN_LOAD_MAX_SESSIONS = Knob.env(SpecEnv.TOKEN_LOAD_MAX_SESSIONS, 100_000.0,
            KnobRule.positive());
    /**
     * pd-gateway's own: the block size of the gateway's prefix-cache model, in tokens. vLLM's default KV block is 16
     * tokens (reference/engine-timing.md); a larger block costs the model proportionally less memory and matches
     * prefixes in coarser steps.
     */
    public static final Knob<Double> PREFIX_CACHE_BLOCK_TOKENS = Knob.env(SpecEnv.PREFIX_CACHE_BLOCK_TOKENS, 16.0,
            KnobRule.positive());

    // ---- PD knobs (PdKnobs): a profile's routingConfig may override each one that has a field name ----
    public static final Knob<PrefillPolicy> PREFILL_SCORE_POLICY = Knob.pd(SpecEnv.PREFILL_SCORE_POLICY,
            "prefillScorePolicy", PrefillPolicy.PREFIX_CACHE,
            KnobRule.oneOf(PrefillPolicy::named, PrefillPolicy.specNames()), PdKnobs::prefillScorePolicy);
    public static final Knob<DecodePolicy> DECODE_SCORE_POLICY = Knob.pd(SpecEnv.DECODE_SCORE_POLICY,
            "decodeScorePolicy", DecodePolicy.LOAD_BALANCING,
            KnobRule.oneOf(DecodePolicy::named, DecodePolicy.specNames()), PdKnobs::decodeScorePolicy);
    public static final Knob<Double> PREFILL_REQUEST_TIMEOUT = Knob.pd(SpecEnv.PREFILL_REQUEST_TIMEOUT,
            "prefillRequestTimeout", 30.0, KnobRule.positive(), PdKnobs::prefillRequestTimeout);
    public static final Knob<Double> PREFILL_LOAD_IMBALANCE_MIN_SPREAD = Knob.pd(
            SpecEnv.PREFILL_LOAD_IMBALANCE_MIN_SPREAD, "prefillLoadImbalanceMinSpread", 16.0, KnobRule.positive(),
            PdKnobs::prefillLoadImbalanceMinSpread);
    public static final Knob<Double> DECODE_LOAD_IMBALANCE_MIN_SPREAD = Knob.pd(
            SpecEnv.DECODE_LOAD_IMBALANCE_MIN_SPREAD, "decodeLoadImbalanceMinSpread", 16.0, KnobRule.positive(),
            PdKnobs::decodeLoadImbalanceMinSpread);
    public static final Knob<Double> DECODE_THROUGHPUT_IMBALANCE_MIN_SPREAD = Knob.pd(
            SpecEnv.DECODE_THROUGHPUT_IMBALANCE_MIN_SPREAD, "decodeThroughputImbalanceMinSpread", 2048.0,
            KnobRule.positive(), PdKnobs::decodeThroughputImbalanceMinSpread);
    public static final Knob<Double> DECODE_SCORE_RATIO_THRESHOLD = Knob.pd(SpecEnv.DECODE_SCORE_RATIO_THRESHOLD,
            "decodeScoreRatioThreshold", 1.5, KnobRule.positive(), PdKnobs::decodeScoreRatioThreshold);
    public static final Knob<Double> DECODE_LB_WEIGHT_RUNNING = Knob.pd(SpecEnv.DECODE_LB_WEIGHT_RUNNING,
            "decodeLBWeightRunning", 1.0, KnobRule.nonNegative(), PdKnobs::decodeLbWeightRunning);
    public static final Knob<Double> DECODE_LB_WEIGHT_THROUGHPUT = Knob.pd(SpecEnv.DECODE_LB_WEIGHT_THROUGHPUT,
            "decodeLBWeightThroughput", 1.0, KnobRule.nonNegative(), PdKnobs::decodeLbWeightThroughput);
    public static final Knob<Double> TOKEN_LOAD_KV_WEIGHT = Knob.pd(SpecEnv.TOKEN_LOAD_KV_WEIGHT,
            "tokenLoadKVWeight", 0.3, KnobRule.positive(), PdKnobs::tokenLoadKvWeight);
    public static final Knob<Double> TOKEN_LOAD_REQUEST_COST = Knob.pd(SpecEnv.TOKEN_LOAD_REQUEST_COST,
            "tokenLoadRequestCost", 3500.0, KnobRule.positive(), PdKnobs::tokenLoadRequestCost);
    public static final Knob<Double> TOKEN_LOAD_TTL_SECONDS = Knob.pd(SpecEnv.TOKEN_LOAD_TTL_SECONDS,
            "tokenLoadTTLSeconds", 3600.0, KnobRule.positive(), PdKnobs::tokenLoadTtlSeconds);
    public static final Knob<Double> TOKEN_LOAD_SESSION_TTL_SECONDS = Knob.pd(SpecEnv.TOKEN_LOAD_SESSION_TTL_SECONDS,
            "tokenLoadSessionTTLSeconds", 1800.0, KnobRule.nonNegative(), PdKnobs::tokenLoadSessionTtlSeconds);
    public static final Knob<Double> HYBRID_CACHE_LOAD_FACTOR = Knob.pd(SpecEnv.HYBRID_CACHE_LOAD_FACTOR,
            "hybridCacheLoadFactor", 0.5, KnobRule.within(0, 1), PdKnobs::hybridCacheLoadFactor);
    public static final Knob<Double> MIN_MATCH_PCT = Knob.pd(SpecEnv.MIN_MATCH_PCT, "minMatchPct", 0.0,
            KnobRule.within(0, 100), PdKnobs::minMatchPct);
    /**
     * Not given by the spec: an abort is a tiny local call, so 2 s is far beyond a healthy pod's answer while still
     * bounding how long a hung pod can hold the gateway's cleanup.
     */
    public static final Knob<Double> DECODE_ABORT_TIMEOUT = Knob.pd(SpecEnv.DECODE_ABORT_TIMEOUT,
            "decodeAbortTimeout", 2.0, KnobRule.positive(), PdKnobs::decodeAbortTimeout);
    /** Not given by the spec: one retry after a short pause covers a pod that is momentarily busy. */
    public static final Knob<Double> DECODE_ABORT_RETRY_DELAY = Knob.pd(SpecEnv.DECODE_ABORT_RETRY_DELAY,
            "decodeAbortRetryDelay", 0.2, KnobRule.nonNegative(), PdKnobs::decodeAbortRetryDelay);
    /** Spec, "SGLang Decode Watchdog". */
    public static final Knob<Double> DECODE_FIRST_RESPONSE_TIMEOUT = Knob.pd(SpecEnv.DECODE_FIRST_RESPONSE_TIMEOUT,
            "decodeFirstResponseTimeout", 60.0, KnobRule.nonNegative(), PdKnobs::decodeFirstResponseTimeout);
    public static final Knob<Double> DECODE_RESPONSE_TIMEOUT = Knob.pd(SpecEnv.DECODE_RESPONSE_TIMEOUT,
            "decodeResponseTimeout", 0.0, KnobRule.nonNegative(), PdKnobs::decodeResponseTimeout);
    public static final Knob<Double> DECODE_STREAM_IDLE_TIMEOUT = Knob.pd(SpecEnv.DECODE_STREAM_IDLE_TIMEOUT,
            "decodeStreamIdleTimeout", 120.0, KnobRule.nonNegative(), PdKnobs::decodeStreamIdleTimeout);
    /**
     * pd-gateway's own: a pod's KV-cache size in tokens when its engine reports none (TensorRT-LLM; vLLM and SGLang
     * report theirs). Default: Llama-3-8B on one H100 with vLLM (reference/engine-timing.md §3.2).
     */
    public static final Knob<Double> KV_CACHE_CAPACITY_TOKENS = Knob.pd(SpecEnv.KV_CACHE_CAPACITY_TOKENS,
            "kvCacheCapacityTokens", 434_000.0, KnobRule.positive(), PdKnobs::kvCacheCapacityTokens);
    /**
     * predicted_ttft (pd-gateway's own): the prefill-time model every pod starts from before its own legs fit it:
     * fixed ms, ms per token, ms per token² of attention. Llama-3-8B on one H100 with vLLM (reference/engine-timing.md
     * §9).
     */
    public static final Knob<PrefillTimeModel.Coefficients> PREFILL_TIME_MODEL = Knob.pd(SpecEnv.PREFILL_TIME_MODEL,
            "prefillTimeModel", PrefillTimeModel.Coefficients.LLAMA3_8B_H100, KnobRule.coefficients(),
            PdKnobs::prefillTimeModel);
    /**
     * predicted_ttft: how much the compute a choice adds to a pod counts beside the predicted first token (the delay
     * it imposes on what queues behind it). 1 measured best on routing-sim's prefix-heavy mix and Mooncake; 0 is
     * greedy on the first token alone.
     */
    public static final Knob<Double> PREDICTED_TTFT_WORK_WEIGHT = Knob.pd(SpecEnv.PREDICTED_TTFT_WORK_WEIGHT,
            "predictedTtftWorkWeight", 1.0, KnobRule.nonNegative(), PdKnobs::predictedTtftWorkWeight);
    /**
     * predicted_ttft: once a pod has answered no prefill for this long (ms), what its model learned fades back towards
     * the default, halving every such period again. A pod that looked slow once (a cold start, a hiccup) is then
     * tried again rather than avoided for good while another pod takes all the traffic; a pod in use never fades.
     */
    public static final Knob<Double> PREFILL_MODEL_FADE_MS = Knob.pd(SpecEnv.PREFILL_MODEL_FADE_MS,
            "prefillModelFadeMs", 10_000.0, KnobRule.positive(), PdKnobs::prefillModelFadeMillis);
    /** predicted_ttft: the KV transfer's fixed cost, ms (RDMA: reference/engine-timing.md §9, line 9). */
    public static final Knob<Double> KV_TRANSFER_SETUP_MS = Knob.pd(SpecEnv.KV_TRANSFER_SETUP_MS,
            "kvTransferSetupMs", 1.0, KnobRule.nonNegative(), PdKnobs::kvTransferSetupMillis);
    /** predicted_ttft: KV transfer ms per 1,000 prompt tokens: 128 KiB a token (8B) over 25 GB/s (§9, lines 6, 9). */
    public static final Knob<Double> KV_TRANSFER_MS_PER_1K_TOKENS = Knob.pd(SpecEnv.KV_TRANSFER_MS_PER_1K_TOKENS,
            "kvTransferMsPer1kTokens", 5.24, KnobRule.nonNegative(), PdKnobs::kvTransferMillisPer1kTokens);
    /** predicted_ttft: a decode pod whose scraped KV use is at or above this fraction takes new requests last. */
    public static final Knob<Double> DECODE_KV_LIMIT = Knob.pd(SpecEnv.DECODE_KV_LIMIT, "decodeKvLimit", 0.95,
            KnobRule.within(0, 1), PdKnobs::decodeKvLimit);
    /** predicted_ttft: a decode pod whose time per output token is at or above this many ms takes new requests last; 0 = no limit. */
    public static final Knob<Double> DECODE_TPOT_LIMIT_MS = Knob.pd(SpecEnv.DECODE_TPOT_LIMIT_MS, "decodeTpotLimitMs",
            0.0, KnobRule.nonNegative(), PdKnobs::decodeTpotLimitMillis);
    /**
     * predicted_ttft: the decode pods' step time "d,e,f" (ms, ms per running sequence, ms per context token): what a
     * request joining a decode pod waits for its tokens and adds to everyone else's. Llama-3-8B on one H100 with vLLM
     * (reference/engine-timing.md §9, line 3).
     */
    public static final Knob<io.pdgateway.core.predict.DecodeStepModel> DECODE_TIME_MODEL = Knob.pd(
            SpecEnv.DECODE_TIME_MODEL, "decodeTimeModel", io.pdgateway.core.predict.DecodeStepModel.LLAMA3_8B_H100,
            KnobRule.decodeCoefficients(), PdKnobs::decodeTimeModel);
    /**
     * predicted_ttft: the output tokens a request is expected to generate (the gateway does not know a request's own
     * before it ends): how many of its tokens the decode side of a pair is paid for, beyond the step for its first.
     * 0 (the default) counts that step only; a chat answer's length (e.g. 256) makes the decode pods' batches count
     * as much as the first token, which balanced 1,000 pods behind one system prompt but cost a sixth of the
     * sustainable rate on routing-sim's prefix-heavy mix, where prefill queues, not decode batches, set the limit.
     */
    public static final Knob<Double> EXPECTED_OUTPUT_TOKENS = Knob.pd(SpecEnv.EXPECTED_OUTPUT_TOKENS,
            "expectedOutputTokens", 0.0, KnobRule.nonNegative(), PdKnobs::expectedOutputTokens);
    /** Environment only (the spec lists no routingConfig field for it). */
    public static final Knob<Boolean> DECODE_TOKEN_LOAD_OUTPUT_GROWTH = Knob.pd(SpecEnv.DECODE_TOKEN_LOAD_OUTPUT_GROWTH,
            null, true, KnobRule.bool(), PdKnobs::decodeTokenLoadOutputGrowth);

    // ---- Engine metrics scraping (ScrapeSettings) ----
    /** Spec / reference §4: engine metrics refresh every 50 ms. */
    public static final Knob<Double> POD_METRIC_REFRESH_INTERVAL_MS = Knob.env(SpecEnv.POD_METRIC_REFRESH_INTERVAL_MS,
            50.0, KnobRule.positive());

    // ---- Engines and their legs (EngineSettings) ----
    public static final Knob<String> KV_CONNECTOR_TYPE = Knob.env(SpecEnv.KV_CONNECTOR_TYPE, "shfs", KnobRule.text());
    /** Spec: a 10-bit id; outside [0, 1024) stops start-up (it must differ between replicas). */
    public static final Knob<Integer> TRT_MACHINE_ID = Knob.fatal(SpecEnv.TRT_MACHINE_ID, 0,
            KnobRule.integerBelow(0, 1024));
    public static final Knob<TrtScheduleStyle> TRT_SCHEDULE_STYLE = Knob.env(SpecEnv.TRT_SCHEDULE_STYLE,
            TrtScheduleStyle.CONTEXT_FIRST, KnobRule.oneOf(TrtScheduleStyle::named, TrtScheduleStyle.specNames()));

    // ---- Redis (RedisSettings) ----
    public static final Knob<String> REDIS_HOST = Knob.env(SpecEnv.REDIS_HOST, null, KnobRule.text());
    /** Redis's own default port. */
    public static final Knob<Double> REDIS_PORT = Knob.env(SpecEnv.REDIS_PORT, 6379.0, KnobRule.positive());
    public static final Knob<String> REDIS_PASSWORD = Knob.env(SpecEnv.REDIS_PASSWORD, null, KnobRule.text());
    public static final Knob<Boolean> TOKEN_LOAD_SHARED_LEDGER = Knob.env(SpecEnv.TOKEN_LOAD_SHARED_LEDGER, true,
            KnobRule.bool());

    // ---- The client-facing HTTP front (FrontSettings); pd-gateway's own ----
    /**
     * 8 MiB: a 128k-token prompt is about 512 KB of text, so even long-context requests fit many times over, while
     * one client cannot make the gateway buffer an unbounded body.
     */
    public static final Knob<Double> MAX_REQUEST_BODY_BYTES = Knob.env(SpecEnv.MAX_REQUEST_BODY_BYTES,
            8.0 * 1024 * 1024, KnobRule.positive());
    /**
     * 0, an eighth of the JVM's maximum heap: every request's body stays in the heap while it is read, routed and sent
     * (with a PD request's leg bodies beside it), and 3,000 bodies of 200 KB at once took a 512 MB heap to
     * OutOfMemoryError, every stream on it lost. An eighth leaves the rest of the heap to those copies and to held
     * streams; a request that would pass it gets 503 and keeps none of its body.
     */
    public static final Knob<Double> MAX_HELD_BODY_BYTES = Knob.env(SpecEnv.MAX_HELD_BODY_BYTES, 0.0,
            KnobRule.nonNegative());
    /**
     * 60 s for the whole body: the default 8 MiB limit needs only 1.1 Mbit/s in that time, and real requests are a
     * fraction of it, while a client that stalls or trickles its body holds a buffer and a socket for at most a minute
     * (nginx's client_body_timeout is 60 s too, though between two reads).
     */
    public static final Knob<Double> REQUEST_BODY_TIMEOUT_SECONDS = Knob.env(SpecEnv.REQUEST_BODY_TIMEOUT_SECONDS,
            60.0, KnobRule.positive());
    public static final Knob<String> API_KEYS = Knob.env(SpecEnv.API_KEYS, null, KnobRule.text());
    public static final Knob<String> API_KEYS_FILE = Knob.env(SpecEnv.API_KEYS_FILE, null, KnobRule.text());
    /**
     * Unset, no CORS: vLLM and SGLang answer every origin by default, but a gateway often holds API keys and faces
     * more than one team, so which web pages may call it from a browser is the operator's to say.
     */
    public static final Knob<String> CORS_ALLOWED_ORIGINS = Knob.env(SpecEnv.CORS_ALLOWED_ORIGINS, null,
            KnobRule.text());
    public static final Knob<Boolean> DEBUG_ENDPOINTS = Knob.env(SpecEnv.DEBUG_ENDPOINTS, false, KnobRule.bool());
    public static final Knob<Boolean> PREFILL_RETRY = Knob.env(SpecEnv.PREFILL_RETRY, true, KnobRule.bool());
    /**
     * 60 s, nginx's client_header_timeout: a new connection that has not sent a whole request head by then is closed
     * (slowloris holds connections by trickling header bytes; real clients send the head in one packet).
     */
    public static final Knob<Double> REQUEST_HEADER_TIMEOUT_SECONDS = Knob.env(SpecEnv.REQUEST_HEADER_TIMEOUT_SECONDS,
            60.0, KnobRule.positive());
    /**
     * 75 s, nginx's keepalive_timeout: a connection with no request in progress closes this long after its last
     * response (Envoy's HTTP idle_timeout is 1 h; an idle connection costs a socket and a buffer, so the shorter).
     */
    public static final Knob<Double> KEEPALIVE_TIMEOUT_SECONDS = Knob.env(SpecEnv.KEEPALIVE_TIMEOUT_SECONDS, 75.0,
            KnobRule.positive());
    /**
     * Off: OpenAI clients speak HTTP/1.1, and HTTP/2's stream multiplexing brings its own abuse (rapid reset) for no
     * gain on loopback or behind a proxy that terminates HTTP/2 itself.
     */
    public static final Knob<Boolean> HTTP2_CLEARTEXT = Knob.env(SpecEnv.HTTP2_CLEARTEXT, false, KnobRule.bool());
    /**
     * 0, one per core: a request and its legs run on one loop from first byte to last, so the loops share nothing
     * but the routing session, and one loop per core is what nginx's worker_processes auto does.
     */
    public static final Knob<Integer> EVENT_LOOPS = Knob.env(SpecEnv.EVENT_LOOPS, 0, KnobRule.integerBelow(0, 257));

    // ---- Upstream bounds, outlier ejection, scraper budget (UpstreamSettings); pd-gateway's own ----
    /** Like the spec's AIBRIX_DECODE_FIRST_RESPONSE_TIMEOUT: a standard pod computes the prefill first, 60 s covers it. */
    public static final Knob<Double> UPSTREAM_FIRST_BYTE_TIMEOUT = Knob.env(SpecEnv.UPSTREAM_FIRST_BYTE_TIMEOUT,
            60.0, KnobRule.nonNegative());
    /** Like the spec's AIBRIX_DECODE_STREAM_IDLE_TIMEOUT (120 s). */
    public static final Knob<Double> UPSTREAM_STREAM_IDLE_TIMEOUT = Knob.env(SpecEnv.UPSTREAM_STREAM_IDLE_TIMEOUT,
            120.0, KnobRule.nonNegative());
    /**
     * 600 s for a whole non-streaming answer: 8,192 tokens at 15 tokens/s fit, while a hung pod holds the client ten
     * minutes at most (the spec's AIBRIX_DECODE_RESPONSE_TIMEOUT defaults to 0, disabled; this is the backstop then).
     */
    public static final Knob<Double> UPSTREAM_RESPONSE_TIMEOUT = Knob.env(SpecEnv.UPSTREAM_RESPONSE_TIMEOUT, 600.0,
            KnobRule.nonNegative());
    /** nginx's send_timeout is 60 s between two successful writes; the same here for a client that stopped reading. */
    public static final Knob<Double> CLIENT_WRITE_STALL_TIMEOUT = Knob.env(SpecEnv.CLIENT_WRITE_STALL_TIMEOUT, 60.0,
            KnobRule.positive());
    /** Envoy's outlier detection ejects after 5 consecutive 5xx; refused connections and failed scrapes are surer. */
    public static final Knob<Double> OUTLIER_CONSECUTIVE_FAILURES = Knob.env(SpecEnv.OUTLIER_CONSECUTIVE_FAILURES,
            3.0, KnobRule.positive());
    /** Envoy's base_ejection_time: 30 s; a successful scrape brings the pod back sooner. */
    public static final Knob<Double> OUTLIER_BASE_EJECTION_MS = Knob.env(SpecEnv.OUTLIER_BASE_EJECTION_MS, 30_000.0,
            KnobRule.positive());
    /** Envoy's max_ejection_time: 300 s. */
    public static final Knob<Double> OUTLIER_MAX_EJECTION_MS = Knob.env(SpecEnv.OUTLIER_MAX_EJECTION_MS, 300_000.0,
            KnobRule.positive());
    /**
     * 100 scrapes per 50 ms interval (2,000 a second): every pod of a 2,000-pod fleet each second, and the scraper's
     * CPU stays flat as the fleet grows (BENCHMARKS.md, "Scraper at scale").
     */
    public static final Knob<Double> SCRAPE_MAX_PER_INTERVAL = Knob.env(SpecEnv.SCRAPE_MAX_PER_INTERVAL, 100.0,
            KnobRule.positive());
    /** A dead pod is asked again at most this far apart (doubling from the refresh interval). */
    public static final Knob<Double> SCRAPE_MAX_BACKOFF_MS = Knob.env(SpecEnv.SCRAPE_MAX_BACKOFF_MS, 5_000.0,
            KnobRule.positive());
    /**
     * 2,048 legs in flight per pod (one HTTP/1.1 connection each): twice the 1,024 that capped issue 16's 10,000
     * streams, so 8 decode pods hold 16,384 streams, 10,000 with room for an uneven spread. Still far above what one
     * engine batches (vLLM's max_num_seqs is 256 to 1,024), so the engine's own queue, not this, is what normally waits.
     */
    public static final Knob<Double> UPSTREAM_MAX_CONNECTIONS_PER_POD = Knob.env(
            SpecEnv.UPSTREAM_MAX_CONNECTIONS_PER_POD, 2_048.0, KnobRule.positive());
    /** Envoy's circuit breaker default for pending requests (max_pending_requests): 1,024. 0: no waiting at all. */
    public static final Knob<Double> UPSTREAM_MAX_WAITING_PER_POD = Knob.env(SpecEnv.UPSTREAM_MAX_WAITING_PER_POD,
            1_024.0, KnobRule.nonNegative());
    /**
     * 5 s, the time a pod has to accept a TCP connection (GatewayServer.CONNECT_TIMEOUT_MS): getting a pooled one may
     * take as long as opening one. Positive: waiting without a bound is what issue 16 found and removed.
     */
    public static final Knob<Double> UPSTREAM_WAIT_TIMEOUT = Knob.env(SpecEnv.UPSTREAM_WAIT_TIMEOUT, 5.0,
            KnobRule.positive());

    /** Every row, for documentation checks. */
    public static List<Knob<?>> all() {
        List<Knob<?>> all = new java.util.ArrayList<>();
        for (java.lang.reflect.Field field : Knobs.class.getFields()) {
            if (field.getType() == Knob.class) {
                try {
                    all.add((Knob<?>) field.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return all;
    }
}
