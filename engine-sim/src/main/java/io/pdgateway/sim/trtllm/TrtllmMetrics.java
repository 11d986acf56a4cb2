package io.pdgateway.sim.trtllm;

import io.pdgateway.sim.EngineStats;
import io.pdgateway.sim.api.PodContext;
import io.pdgateway.sim.api.PrometheusText;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * TensorRT-LLM's Prometheus names under {@code /prometheus/metrics} (reference upstream-pd-router.md §4), labelled
 * {@code model_name} and {@code engine_type="trtllm"} as trtllm-serve labels them. Latencies are in modelled engine
 * seconds. Bucket bounds are vLLM's: TensorRT-LLM's own were not checked.
 */
final class TrtllmMetrics {

    static final String PATH = "/prometheus/metrics";

    private TrtllmMetrics() {
    }

    static String render(PodContext pod) {
        EngineStats stats = pod.stats();
        Map<String, Long> finished = new LinkedHashMap<>(stats.finishedByReason());
        finished.remove(EngineStats.FINISHED_ABORT); // a success counter: aborted requests are not successes
        double hitRate = stats.prefixCacheQueries == 0 ? 0 : (double) stats.prefixCacheHits / stats.prefixCacheQueries;
        String labels = PrometheusText.label("model_name", pod.config().modelName()) + ","
                + PrometheusText.label("engine_type", TrtllmPersonality.NAME);
        return new PrometheusText(labels)
                .counters("trtllm_request_success_total", "Count of successfully processed requests.",
                        "finished_reason", finished)
                .gauge("trtllm_kv_cache_utilization", "KV-cache utilization, 0..1.", pod.kvPool().usage())
                .gauge("trtllm_kv_cache_hit_rate", "KV-cache reuse hit rate, 0..1.", hitRate)
                .counter("trtllm_prompt_tokens_total", "Number of prefill tokens processed.", stats.promptTokens)
                .counter("trtllm_generation_tokens_total", "Number of generation tokens processed.",
                        stats.generationTokens)
                .histogram("trtllm_time_to_first_token_seconds", "Histogram of time to first token in seconds.",
                        stats.timeToFirstToken)
                .histogram("trtllm_e2e_request_latency_seconds", "Histogram of end to end request latency in seconds.",
                        stats.e2eLatency)
                .histogram("trtllm_request_queue_time_seconds", "Histogram of time spent in the waiting queue.",
                        stats.queueTime)
                .toString();
    }
}
