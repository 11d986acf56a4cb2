package io.pdgateway.core.spec;

/** Environment variables of the spec's "Environment Variables" table and design.md §2, spelled as users set them. */
public final class SpecEnv {
    public static final String ROUTING_ALGORITHM = "ROUTING_ALGORITHM";
    public static final String REDIS_HOST = "REDIS_HOST";
    public static final String REDIS_PORT = "REDIS_PORT";
    public static final String REDIS_PASSWORD = "REDIS_PASSWORD";

    public static final String PROMPT_LENGTH_BUCKETING = "AIBRIX_PROMPT_LENGTH_BUCKETING";
    public static final String BUCKET_SERVE = "AIBRIX_BUCKET_SERVE";
    public static final String BUCKET_SERVE_MODE = "AIBRIX_BUCKET_SERVE_MODE";
    public static final String PREFILL_REQUEST_TIMEOUT = "AIBRIX_PREFILL_REQUEST_TIMEOUT";
    public static final String PREFILL_SCORE_POLICY = "AIBRIX_PREFILL_SCORE_POLICY";
    public static final String DECODE_SCORE_POLICY = "AIBRIX_DECODE_SCORE_POLICY";
    public static final String KV_CONNECTOR_TYPE = "AIBRIX_KV_CONNECTOR_TYPE";
    public static final String PREFILL_LOAD_IMBALANCE_MIN_SPREAD = "AIBRIX_PREFILL_LOAD_IMBALANCE_MIN_SPREAD";
    public static final String DECODE_LOAD_IMBALANCE_MIN_SPREAD = "AIBRIX_DECODE_LOAD_IMBALANCE_MIN_SPREAD";
    public static final String DECODE_THROUGHPUT_IMBALANCE_MIN_SPREAD = "AIBRIX_DECODE_THROUGHPUT_IMBALANCE_MIN_SPREAD";
    public static final String DECODE_SCORE_RATIO_THRESHOLD = "AIBRIX_DECODE_SCORE_RATIO_THRESHOLD";
    public static final String DECODE_LB_WEIGHT_RUNNING = "AIBRIX_DECODE_LB_WEIGHT_RUNNING";
    public static final String DECODE_LB_WEIGHT_THROUGHPUT = "AIBRIX_DECODE_LB_WEIGHT_THROUGHPUT";
    public static final String TOKEN_LOAD_KV_WEIGHT = "AIBRIX_TOKEN_LOAD_KV_WEIGHT";
    public static final String TOKEN_LOAD_REQUEST_COST = "AIBRIX_TOKEN_LOAD_REQUEST_COST";
    public static final String TOKEN_LOAD_TTL_SECONDS = "AIBRIX_TOKEN_LOAD_TTL_SECONDS";
    public static final String TOKEN_LOAD_SESSION_TTL_SECONDS = "AIBRIX_TOKEN_LOAD_SESSION_TTL_SECONDS";
    public static final String TOKEN_LOAD_MAX_SESSIONS = "AIBRIX_TOKEN_LOAD_MAX_SESSIONS";
    public static final String TOKEN_LOAD_SHARED_LEDGER = "AIBRIX_TOKEN_LOAD_SHARED_LEDGER";
    public static final String HYBRID_CACHE_LOAD_FACTOR = "AIBRIX_HYBRID_CACHE_LOAD_FACTOR";
    public static final String MIN_MATCH_PCT = "AIBRIX_MIN_MATCH_PCT";
    public static final String DECODE_TOKEN_LOAD_OUTPUT_GROWTH = "AIBRIX_DECODE_TOKEN_LOAD_OUTPUT_GROWTH";
    public static final String TRT_MACHINE_ID = "AIBRIX_TRT_MACHINE_ID";
    public static final String TRT_SCHEDULE_STYLE = "AIBRIX_TRT_SCHEDULE_STYLE";
    public static final String DECODE_FIRST_RESPONSE_TIMEOUT = "AIBRIX_DECODE_FIRST_RESPONSE_TIMEOUT";
    public static final String DECODE_RESPONSE_TIMEOUT = "AIBRIX_DECODE_RESPONSE_TIMEOUT";
    public static final String DECODE_STREAM_IDLE_TIMEOUT = "AIBRIX_DECODE_STREAM_IDLE_TIMEOUT";
    /**
     * The environment defaults of the profile knobs decodeAbortTimeout and decodeAbortRetryDelay. The spec names the
     * profile fields and says each overrides "the matching gateway environment variable" without naming it; these
     * names follow their siblings'.
     */
    public static final String DECODE_ABORT_TIMEOUT = "AIBRIX_DECODE_ABORT_TIMEOUT";
    public static final String DECODE_ABORT_RETRY_DELAY = "AIBRIX_DECODE_ABORT_RETRY_DELAY";
    public static final String POD_METRIC_REFRESH_INTERVAL_MS = "AIBRIX_POD_METRIC_REFRESH_INTERVAL_MS";
    public static final String PREFIX_CACHE_TOKENIZER_TYPE = "AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE";
    public static final String PREFIX_CACHE_STANDARD_DEVIATION_FACTOR = "AIBRIX_PREFIX_CACHE_STANDARD_DEVIATION_FACTOR";

    /** pd-gateway's own: tokens per block of the gateway's prefix-cache model (default 16, vLLM's block size). */
    public static final String PREFIX_CACHE_BLOCK_TOKENS = "PD_GATEWAY_PREFIX_CACHE_BLOCK_TOKENS";
    /** pd-gateway's own: a pod's KV-cache size in tokens when its engine reports none (profile: kvCacheCapacityTokens). */
    public static final String KV_CACHE_CAPACITY_TOKENS = "PD_GATEWAY_KV_CACHE_CAPACITY_TOKENS";

    /** pd-gateway's own, predicted_ttft: the default prefill-time model "a,b,c" (ms, ms/token, ms/token²). */
    public static final String PREFILL_TIME_MODEL = "PD_GATEWAY_PREFILL_TIME_MODEL";
    /** pd-gateway's own, predicted_ttft: the weight of the compute a choice adds to a pod. */
    public static final String PREDICTED_TTFT_WORK_WEIGHT = "PD_GATEWAY_PREDICTED_TTFT_WORK_WEIGHT";
    /** pd-gateway's own, predicted_ttft: ms without an answered prefill after which a pod's model fades to its default. */
    public static final String PREFILL_MODEL_FADE_MS = "PD_GATEWAY_PREFILL_MODEL_FADE_MS";
    /** pd-gateway's own, predicted_ttft: the KV transfer's fixed cost in ms. */
    public static final String KV_TRANSFER_SETUP_MS = "PD_GATEWAY_KV_TRANSFER_SETUP_MS";
    /** pd-gateway's own, predicted_ttft: KV transfer ms per 1,000 prompt tokens. */
    public static final String KV_TRANSFER_MS_PER_1K_TOKENS = "PD_GATEWAY_KV_TRANSFER_MS_PER_1K_TOKENS";
    /** pd-gateway's own, predicted_ttft: the decode pods' KV-use limit (fraction). */
    public static final String DECODE_KV_LIMIT = "PD_GATEWAY_DECODE_KV_LIMIT";
    /** pd-gateway's own, predicted_ttft: the decode pods' time-per-output-token limit in ms (0 = none). */
    public static final String DECODE_TPOT_LIMIT_MS = "PD_GATEWAY_DECODE_TPOT_LIMIT_MS";
    /** pd-gateway's own, predicted_ttft: the decode pods' step-time model "d,e,f" (ms, ms/sequence, ms/context token). */
    public static final String DECODE_TIME_MODEL = "PD_GATEWAY_DECODE_TIME_MODEL";
    /** pd-gateway's own, predicted_ttft: the output tokens a request is expected to generate. */
    public static final String EXPECTED_OUTPUT_TOKENS = "PD_GATEWAY_EXPECTED_OUTPUT_TOKENS";

    /** pd-gateway's own: "true" serves the /debug/* endpoints (off by default: they show internal state). */
    public static final String DEBUG_ENDPOINTS = "PD_GATEWAY_DEBUG_ENDPOINTS";

    /** pd-gateway's own: largest request body accepted before answering 413 (not in the spec). */
    public static final String MAX_REQUEST_BODY_BYTES = "PD_GATEWAY_MAX_REQUEST_BODY_BYTES";
    /** pd-gateway's own: request bodies held at once, all requests together, before answering 503 (0: auto). */
    public static final String MAX_HELD_BODY_BYTES = "PD_GATEWAY_MAX_HELD_BODY_BYTES";
    /** pd-gateway's own: seconds in-flight requests get to finish after SIGTERM ({@code serve --drain-grace-seconds}). */
    public static final String DRAIN_GRACE_SECONDS = "PD_GATEWAY_DRAIN_GRACE_SECONDS";
    /** pd-gateway's own: "false" stops retrying a prefill that failed transiently on other pods (on by default). */
    public static final String PREFILL_RETRY = "PD_GATEWAY_PREFILL_RETRY";
    /** pd-gateway's own: seconds a client has to send its whole request body before it gets 408. */
    public static final String REQUEST_BODY_TIMEOUT_SECONDS = "PD_GATEWAY_REQUEST_BODY_TIMEOUT_SECONDS";
    /** pd-gateway's own: client API keys, comma-separated; set, every request but the probes needs one. */
    public static final String API_KEYS = "PD_GATEWAY_API_KEYS";
    /** pd-gateway's own: a file of client API keys, one per line ('#' starts a comment). */
    public static final String API_KEYS_FILE = "PD_GATEWAY_API_KEYS_FILE";
    /** pd-gateway's own: browser origins answered with CORS headers, "*" or a comma-separated list (unset: none). */
    public static final String CORS_ALLOWED_ORIGINS = "PD_GATEWAY_CORS_ALLOWED_ORIGINS";
    /** pd-gateway's own: seconds a new client connection has to send its first request's headers. */
    public static final String REQUEST_HEADER_TIMEOUT_SECONDS = "PD_GATEWAY_REQUEST_HEADER_TIMEOUT_SECONDS";
    /** pd-gateway's own: seconds a client connection may wait between requests (after a response) before it closes. */
    public static final String KEEPALIVE_TIMEOUT_SECONDS = "PD_GATEWAY_KEEPALIVE_TIMEOUT_SECONDS";
    /** pd-gateway's own: "true" serves HTTP/2 over cleartext (h2c) besides HTTP/1.1 (off by default). */
    public static final String HTTP2_CLEARTEXT = "PD_GATEWAY_HTTP2_CLEARTEXT";
    /** pd-gateway's own: event loops that serve clients, each with its own pod connections (0: one per core). */
    public static final String EVENT_LOOPS = "PD_GATEWAY_EVENT_LOOPS";

    // ---- Upstream bounds, outlier ejection and the scraper's budget (pd-gateway's own; the spec has none) ----
    /** pd-gateway's own: seconds a standard pod's stream has for its first body chunk (504 before it). */
    public static final String UPSTREAM_FIRST_BYTE_TIMEOUT = "PD_GATEWAY_UPSTREAM_FIRST_BYTE_TIMEOUT";
    /** pd-gateway's own: longest gap in seconds between two chunks of a standard pod's stream (cut short after). */
    public static final String UPSTREAM_STREAM_IDLE_TIMEOUT = "PD_GATEWAY_UPSTREAM_STREAM_IDLE_TIMEOUT";
    /**
     * pd-gateway's own: seconds a non-streaming answer may take in full, from a standard pod, and from a decode pod
     * while AIBRIX_DECODE_RESPONSE_TIMEOUT is at the spec's 0.
     */
    public static final String UPSTREAM_RESPONSE_TIMEOUT = "PD_GATEWAY_UPSTREAM_RESPONSE_TIMEOUT";
    /** pd-gateway's own: seconds a client that stopped reading may hold a stream before the gateway closes it. */
    public static final String CLIENT_WRITE_STALL_TIMEOUT = "PD_GATEWAY_CLIENT_WRITE_STALL_TIMEOUT";
    /** pd-gateway's own: consecutive connection or scrape failures that eject a pod from routing. */
    public static final String OUTLIER_CONSECUTIVE_FAILURES = "PD_GATEWAY_OUTLIER_CONSECUTIVE_FAILURES";
    /** pd-gateway's own: first ejection of a pod, in ms (doubles with each ejection in a row). */
    public static final String OUTLIER_BASE_EJECTION_MS = "PD_GATEWAY_OUTLIER_BASE_EJECTION_MS";
    /** pd-gateway's own: longest ejection of a pod, in ms. */
    public static final String OUTLIER_MAX_EJECTION_MS = "PD_GATEWAY_OUTLIER_MAX_EJECTION_MS";
    /** pd-gateway's own: most scrapes the scraper starts per refresh interval. */
    public static final String SCRAPE_MAX_PER_INTERVAL = "PD_GATEWAY_SCRAPE_MAX_PER_INTERVAL";
    /** pd-gateway's own: longest pause in ms between two scrapes of a pod whose scrapes keep failing. */
    public static final String SCRAPE_MAX_BACKOFF_MS = "PD_GATEWAY_SCRAPE_MAX_BACKOFF_MS";
    /** pd-gateway's own: requests (legs) one pod may have in flight from this gateway, each on its own connection. */
    public static final String UPSTREAM_MAX_CONNECTIONS_PER_POD = "PD_GATEWAY_UPSTREAM_MAX_CONNECTIONS_PER_POD";
    /** pd-gateway's own: requests that may wait for one of a pod's connections; beyond them a request gets 503. */
    public static final String UPSTREAM_MAX_WAITING_PER_POD = "PD_GATEWAY_UPSTREAM_MAX_WAITING_PER_POD";
    /** pd-gateway's own: seconds a request may wait for a pod's connection before it gets 503. */
    public static final String UPSTREAM_WAIT_TIMEOUT = "PD_GATEWAY_UPSTREAM_WAIT_TIMEOUT";

    private SpecEnv() {}
}
