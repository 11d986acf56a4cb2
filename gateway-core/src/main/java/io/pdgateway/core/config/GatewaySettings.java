package io.pdgateway.core.config;

import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.core.spec.SpecStrategies;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Gateway-wide settings from the environment, with the spec's defaults. Build with {@link #fromEnv}. Two values stop
 * start-up with a clear message (design.md §2, spec): an unknown ROUTING_ALGORITHM and an AIBRIX_TRT_MACHINE_ID
 * outside [0, 1024). Every other bad value keeps its default and is reported in {@link #warnings()}.
 *
 * @param defaultStrategy ROUTING_ALGORITHM
 * @param pd the PD knobs a profile's routingConfig may override per request
 * @param metricRefreshIntervalMs AIBRIX_POD_METRIC_REFRESH_INTERVAL_MS
 * @param prefixCacheTokenizer AIBRIX_PREFIX_CACHE_TOKENIZER_TYPE: "character" or "tiktoken"
 * @param stddevFactor AIBRIX_PREFIX_CACHE_STANDARD_DEVIATION_FACTOR
 * @param trtScheduleStyle AIBRIX_TRT_SCHEDULE_STYLE: context_first or generation_first
 * @param maxRequestBodyBytes PD_GATEWAY_MAX_REQUEST_BODY_BYTES
 * @param debugEndpoints PD_GATEWAY_DEBUG_ENDPOINTS
 * @param redisHost REDIS_HOST, or null when Redis is not configured
 * @param prefillRetry PD_GATEWAY_PREFILL_RETRY
 * @param requestBodyTimeoutSeconds PD_GATEWAY_REQUEST_BODY_TIMEOUT_SECONDS
 * @param apiKeys PD_GATEWAY_API_KEYS as set (comma-separated keys), or null
 * @param apiKeysFile PD_GATEWAY_API_KEYS_FILE, or null
 */
public record GatewaySettings(
        String defaultStrategy,
        boolean promptLengthBucketing,
        String kvConnectorType,
        PdKnobs pd,
        long metricRefreshIntervalMs,
        String prefixCacheTokenizer,
        double stddevFactor,
        int trtMachineId,
        String trtScheduleStyle,
        boolean bucketServe,
        String bucketServeMode,
        int tokenLoadMaxSessions,
        boolean tokenLoadSharedLedger,
        int maxRequestBodyBytes,
        boolean debugEndpoints,
        String redisHost,
        int redisPort,
        String redisPassword,
        boolean prefillRetry,
        double requestBodyTimeoutSeconds,
        String apiKeys,
        String apiKeysFile,
        List<String> warnings) {

    /** Spec: AIBRIX_KV_CONNECTOR_TYPE defaults to shfs. */
    public static final String DEFAULT_KV_CONNECTOR_TYPE = "shfs";
    /** Spec, "Pod Selection Algorithm" / reference §4: engine metrics refresh every 50 ms. */
    public static final long DEFAULT_METRIC_REFRESH_INTERVAL_MS = 50;
    /** Reference §7: the character tokenizer is upstream's default for the prefix index. */
    public static final String TOKENIZER_CHARACTER = "character";
    public static final String TOKENIZER_TIKTOKEN = "tiktoken";
    /** Reference §3: AIBRIX_PREFIX_CACHE_STANDARD_DEVIATION_FACTOR defaults to 1. */
    public static final double DEFAULT_STDDEV_FACTOR = 1;
    /** Spec: AIBRIX_TRT_MACHINE_ID is a 10-bit id. */
    public static final int TRT_MACHINE_ID_LIMIT = 1024;
    public static final String CONTEXT_FIRST = "context_first";
    public static final String GENERATION_FIRST = "generation_first";
    public static final String BUCKET_SERVE_THROUGHPUT = "throughput";
    public static final String BUCKET_SERVE_RPS = "rps";
    /** Spec: AIBRIX_TOKEN_LOAD_MAX_SESSIONS defaults to 100000. */
    public static final int DEFAULT_TOKEN_LOAD_MAX_SESSIONS = 100_000;
    /** Redis's own default port. */
    public static final int DEFAULT_REDIS_PORT = 6379;
    /**
     * 8 MiB: a 128k-token prompt is about 512 KB of text, so even long-context requests fit many times over, while
     * one client cannot make the gateway buffer an unbounded body.
     */
    public static final int DEFAULT_MAX_REQUEST_BODY_BYTES = 8 * 1024 * 1024;
    /**
     * 60 s for the whole body: the default 8 MiB limit needs only 1.1 Mbit/s in that time, and real requests are a
     * fraction of it, while a client that stalls or trickles its body holds a buffer and a socket for at most a minute
     * (nginx's client_body_timeout is 60 s too, though between two reads).
     */
    public static final double DEFAULT_REQUEST_BODY_TIMEOUT_SECONDS = 60;

    public GatewaySettings {
        warnings = List.copyOf(warnings);
    }

    public static GatewaySettings defaults() {
        return fromEnv(Map.of());
    }

    public static GatewaySettings fromEnv(Map<String, String> env) {
        EnvReader reader = new EnvReader(env);
        String strategy = reader.string(SpecEnv.ROUTING_ALGORITHM, SpecStrategies.DEFAULT).toLowerCase(Locale.ROOT);
        if (!SpecStrategies.isSupported(strategy)) {
            throw new IllegalArgumentException(SpecEnv.ROUTING_ALGORITHM + "=" + strategy
                    + " is not a routing strategy this gateway knows; supported: "
                    + String.join(", ", SpecStrategies.SUPPORTED));
        }
        String machineId = reader.string(SpecEnv.TRT_MACHINE_ID, "0");
        int trtMachineId;
        try {
            trtMachineId = Integer.parseInt(machineId);
        } catch (NumberFormatException e) {
            trtMachineId = -1;
        }
        if (trtMachineId < 0 || trtMachineId >= TRT_MACHINE_ID_LIMIT) {
            throw new IllegalArgumentException(SpecEnv.TRT_MACHINE_ID + "=" + machineId
                    + " must be an integer in [0, 1024): it is the 10-bit machine id of TensorRT-LLM disagg_request_ids");
        }
        String schedule = oneOf(reader, SpecEnv.TRT_SCHEDULE_STYLE, List.of(CONTEXT_FIRST, GENERATION_FIRST), CONTEXT_FIRST);
        String bucketMode = oneOf(reader, SpecEnv.BUCKET_SERVE_MODE, List.of(BUCKET_SERVE_THROUGHPUT, BUCKET_SERVE_RPS),
                BUCKET_SERVE_THROUGHPUT);
        String tokenizer = reader.string(SpecEnv.PREFIX_CACHE_TOKENIZER_TYPE, TOKENIZER_CHARACTER).toLowerCase(Locale.ROOT);
        // Reference §7: anything but tiktoken means character.
        tokenizer = TOKENIZER_TIKTOKEN.equals(tokenizer) ? TOKENIZER_TIKTOKEN : TOKENIZER_CHARACTER;
        String redisHost = reader.string(SpecEnv.REDIS_HOST, null);
        return new GatewaySettings(
                strategy,
                reader.bool(SpecEnv.PROMPT_LENGTH_BUCKETING, false),
                reader.string(SpecEnv.KV_CONNECTOR_TYPE, DEFAULT_KV_CONNECTOR_TYPE).toLowerCase(Locale.ROOT),
                PdKnobs.fromEnv(reader),
                (long) reader.positive(SpecEnv.POD_METRIC_REFRESH_INTERVAL_MS, DEFAULT_METRIC_REFRESH_INTERVAL_MS),
                tokenizer,
                reader.positive(SpecEnv.PREFIX_CACHE_STANDARD_DEVIATION_FACTOR, DEFAULT_STDDEV_FACTOR),
                trtMachineId,
                schedule,
                reader.bool(SpecEnv.BUCKET_SERVE, false),
                bucketMode,
                (int) reader.positive(SpecEnv.TOKEN_LOAD_MAX_SESSIONS, DEFAULT_TOKEN_LOAD_MAX_SESSIONS),
                reader.bool(SpecEnv.TOKEN_LOAD_SHARED_LEDGER, true),
                (int) reader.positive(SpecEnv.MAX_REQUEST_BODY_BYTES, DEFAULT_MAX_REQUEST_BODY_BYTES),
                reader.bool(SpecEnv.DEBUG_ENDPOINTS, false),
                redisHost,
                (int) reader.positive(SpecEnv.REDIS_PORT, DEFAULT_REDIS_PORT),
                reader.string(SpecEnv.REDIS_PASSWORD, null),
                reader.bool(SpecEnv.PREFILL_RETRY, true),
                reader.positive(SpecEnv.REQUEST_BODY_TIMEOUT_SECONDS, DEFAULT_REQUEST_BODY_TIMEOUT_SECONDS),
                reader.string(SpecEnv.API_KEYS, null),
                reader.string(SpecEnv.API_KEYS_FILE, null),
                reader.warnings());
    }

    private static String oneOf(EnvReader reader, String name, List<String> known, String fallback) {
        String value = reader.string(name, fallback).toLowerCase(Locale.ROOT);
        if (known.contains(value)) {
            return value;
        }
        reader.warn(name + "=" + value + " is not one of " + known + "; using " + fallback);
        return fallback;
    }
}
