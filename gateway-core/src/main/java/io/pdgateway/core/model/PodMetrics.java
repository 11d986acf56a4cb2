package io.pdgateway.core.model;

/**
 * The engine metrics of one pod from its last scrape. Absent values are NaN (a gauge the engine does not export
 * is not the same as zero: upstream treats "has the metric" as a signal of its own).
 *
 * @param waiting requests queued in the engine (vllm:num_requests_waiting, sglang:num_queue_reqs)
 * @param prefillPreallocQueue SGLang's prefill pre-allocation queue; NaN for other engines
 * @param decodePreallocQueue SGLang's decode pre-allocation queue; NaN for other engines
 * @param kvCacheUsage KV cache use as a fraction 0..1
 * @param generationThroughput generated tokens per second (the engine's gauge, or derived from counter deltas)
 * @param avgPrefillMillis mean prefill time from the engine's histogram
 * @param kvCapacityTokens the engine's KV cache size in tokens (vLLM: block_size × num_gpu_blocks of
 *     cache_config_info; SGLang: max_total_num_tokens), NaN when it reports none
 * @param scrapedAtNanos when the scrape that produced these values finished, on the gateway's monotonic clock
 */
public record PodMetrics(double waiting, double prefillPreallocQueue, double decodePreallocQueue, double kvCacheUsage,
        double generationThroughput, double avgPrefillMillis, double kvCapacityTokens, long scrapedAtNanos) {

    /** No metrics for the pod (never scraped, or stale). */
    public static final PodMetrics ABSENT = new PodMetrics(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            Double.NaN, Double.NaN, Long.MIN_VALUE);

    public boolean present() {
        return scrapedAtNanos != Long.MIN_VALUE;
    }

    public boolean hasThroughput() {
        return !Double.isNaN(generationThroughput);
    }

    /** Queued work as shouldPickCombined counts it: missing gauges count as zero (reference §3 step C). */
    public double queued() {
        return zeroIfNaN(waiting) + zeroIfNaN(prefillPreallocQueue) + zeroIfNaN(decodePreallocQueue);
    }

    private static double zeroIfNaN(double value) {
        return Double.isNaN(value) ? 0 : value;
    }
}
