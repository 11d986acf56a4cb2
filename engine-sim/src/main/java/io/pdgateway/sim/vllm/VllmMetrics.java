package io.pdgateway.sim.vllm;

import io.pdgateway.sim.EngineStats;
import io.pdgateway.sim.api.PodContext;
import io.pdgateway.sim.api.PrometheusText;

/**
 * vLLM V1's Prometheus names and shapes (vllm/v1/metrics/loggers.py; reference upstream-pd-router.md §4 for the
 * ones AIBrix scrapes). Every sample carries {@code model_name} and V1's {@code engine="0"}. Latencies are in
 * modelled engine seconds (see {@link EngineStats}).
 */
public final class VllmMetrics {

    static final String PATH = "/metrics";

    /** vLLM V1's buckets for vllm:time_to_first_token_seconds. */
    public static final double[] TTFT_BUCKETS = {
        0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0,
        80.0, 160.0, 640.0, 2560.0,
    };
    /** vLLM V1's request_latency_buckets, shared by the e2e, queue, prefill and decode histograms. */
    public static final double[] REQUEST_LATENCY_BUCKETS = {
        0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0,
        960.0, 1920.0, 7680.0,
    };

    private VllmMetrics() {
    }

    static String render(PodContext pod) {
        EngineStats stats = pod.stats();
        String labels = PrometheusText.label("model_name", pod.config().modelName()) + ","
                + PrometheusText.label("engine", "0");
        double kvUsage = pod.kvPool().usage();
        return new PrometheusText(labels)
                .gauge("vllm:num_requests_running", "Number of requests in model execution batches.",
                        pod.loop().running())
                .gauge("vllm:num_requests_waiting", "Number of requests waiting to be processed.",
                        pod.loop().waiting() + stats.kvFetchesInFlight)
                .gauge("vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.", kvUsage)
                .gauge("vllm:gpu_cache_usage_perc",
                        "GPU KV-cache usage. 1 means 100 percent usage. DEPRECATED: Use vllm:kv_cache_usage_perc instead.",
                        kvUsage)
                .counter("vllm:prefix_cache_queries_total",
                        "Prefix cache queries, in terms of number of queried tokens.", stats.prefixCacheQueries)
                .counter("vllm:prefix_cache_hits_total", "Prefix cache hits, in terms of number of cached tokens.",
                        stats.prefixCacheHits)
                .counter("vllm:prompt_tokens_total", "Number of prefill tokens processed.", stats.promptTokens)
                .counter("vllm:generation_tokens_total", "Number of generation tokens processed.",
                        stats.generationTokens)
                .counters("vllm:request_success_total", "Count of successfully processed requests.",
                        "finished_reason", stats.finishedByReason())
                // Not a vLLM name: AIBrix's metrics.go reads request_success_total under this one (reference §4).
                .counter("vllm:num_requests_success_total",
                        "Requests finished with stop or length (the name AIBrix scrapes).", stats.successfulTotal())
                .histogram("vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.",
                        stats.timeToFirstToken)
                .histogram("vllm:request_prefill_time_seconds",
                        "Histogram of time spent in PREFILL phase for request.", stats.prefillTime)
                .histogram("vllm:request_decode_time_seconds",
                        "Histogram of time spent in DECODE phase for request.", stats.decodeTime)
                .histogram("vllm:request_queue_time_seconds",
                        "Histogram of time spent in WAITING phase for request.", stats.queueTime)
                .histogram("vllm:e2e_request_latency_seconds", "Histogram of e2e request latency in seconds.",
                        stats.e2eLatency)
                .info("vllm:cache_config_info", "Information of the LLMEngine CacheConfig", cacheConfig(pod))
                .toString();
    }

    /**
     * vLLM's cache_config_info labels: its CacheConfig's fields as strings (CacheConfig.metrics_info), here the ones
     * that describe the cache's size and use, and the engine index V1 adds. The KV cache holds num_gpu_blocks blocks
     * of block_size tokens: what a router reads as the pod's cache capacity.
     */
    static String cacheConfig(PodContext pod) {
        int blockSize = pod.config().timing().blockSizeTokens();
        return String.join(",",
                PrometheusText.label("block_size", Integer.toString(blockSize)),
                PrometheusText.label("cache_dtype", "auto"),
                PrometheusText.label("enable_prefix_caching", "True"),
                PrometheusText.label("num_gpu_blocks", Integer.toString(pod.kvPool().capacityTokens() / blockSize)),
                PrometheusText.label("num_gpu_blocks_override", "None"),
                PrometheusText.label("engine", "0"));
    }
}
