package io.pdgateway.engine;

import java.util.HashSet;
import java.util.Set;

/**
 * Which exported metric feeds which routing signal for one engine, and where the engine serves them (reference §4).
 * Each {@link EngineAdapter} owns its engine's; a null name means the engine does not export that signal.
 *
 * @param waiting queued requests
 * @param prefillPrealloc SGLang's prefill pre-allocation queue
 * @param decodePrealloc SGLang's decode pre-allocation queue
 * @param kvUsage KV cache usage 0..1, with a fallback name for older engines
 * @param throughputGauge the engine's own generation throughput gauge, when it has one
 * @param generationCounter generated tokens counter, for a throughput derived from deltas
 * @param prefillTimeHistogram base name of the prefill-time histogram (its _sum and _count are read)
 * @param cacheConfigInfo an info metric whose {@code block_size} and {@code num_gpu_blocks} labels give the KV cache's
 *     size (vLLM's cache_config_info), or null
 * @param kvCapacityGauge a gauge of the KV cache's size in tokens (SGLang's max_total_num_tokens), or null
 * @param prefixHitTokens a counter of the prompt tokens the engine's prefix cache served (vLLM's), or null
 * @param prefixQueriedTokens a counter of the prompt tokens it looked up there, beside {@code prefixHitTokens}
 * @param prefixHitRate a gauge of the engine's own recent prefix-cache hit rate, 0..1, for an engine that exports a
 *     rate instead of the two counters (SGLang's, TensorRT-LLM's), or null
 */
public record EngineMetricNames(String path, String waiting, String prefillPrealloc, String decodePrealloc,
        String kvUsage, String kvUsageFallback, String throughputGauge, String generationCounter,
        String prefillTimeHistogram, String cacheConfigInfo, String kvCapacityGauge, String prefixHitTokens,
        String prefixQueriedTokens, String prefixHitRate) {

    public static final EngineMetricNames VLLM = new EngineMetricNames("/metrics", "vllm:num_requests_waiting", null, null,
            "vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc", "vllm:avg_generation_throughput_toks_per_s",
            "vllm:generation_tokens_total", "vllm:request_prefill_time_seconds", "vllm:cache_config_info", null,
            "vllm:prefix_cache_hits_total", "vllm:prefix_cache_queries_total", null);
    public static final EngineMetricNames SGLANG = new EngineMetricNames("/metrics", "sglang:num_queue_reqs",
            "sglang:num_prefill_prealloc_queue_reqs", "sglang:num_decode_prealloc_queue_reqs", "sglang:token_usage",
            null, "sglang:gen_throughput", null, null, null, "sglang:max_total_num_tokens", null, null,
            "sglang:cache_hit_rate");
    /**
     * TensorRT-LLM serves Prometheus under /prometheus/metrics and exports KV utilisation, no queue (reference §4),
     * and its KV reuse hit rate: its cache size comes from the kvCacheCapacityTokens setting.
     */
    public static final EngineMetricNames TRTLLM = new EngineMetricNames("/prometheus/metrics", null, null, null,
            "trtllm_kv_cache_utilization", null, null, null, null, null, null, null, null, "trtllm_kv_cache_hit_rate");

    /** Every sample name worth reading from this engine's exposition. */
    public Set<String> wanted() {
        Set<String> names = new HashSet<>();
        for (String name : new String[] {waiting, prefillPrealloc, decodePrealloc, kvUsage, kvUsageFallback,
            throughputGauge, generationCounter, kvCapacityGauge, prefixHitTokens, prefixQueriedTokens, prefixHitRate}) {
            if (name != null) {
                names.add(name);
            }
        }
        if (prefillTimeHistogram != null) {
            names.add(prefillTimeHistogram + "_sum");
            names.add(prefillTimeHistogram + "_count");
        }
        return Set.copyOf(names);
    }
}
