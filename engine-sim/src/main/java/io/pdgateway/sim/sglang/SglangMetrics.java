package io.pdgateway.sim.sglang;

import io.pdgateway.sim.EngineStats;
import io.pdgateway.sim.api.PodContext;
import io.pdgateway.sim.api.PrometheusText;
import io.pdgateway.sim.kv.KvRendezvous;

/**
 * SGLang's Prometheus names (sglang/srt/metrics; reference upstream-pd-router.md §4 for the ones AIBrix scrapes),
 * every sample labelled {@code model_name}. Latencies are in modelled engine seconds; the generation throughput is
 * the rate since the previous scrape.
 */
final class SglangMetrics {

    static final String PATH = "/metrics";
    /** SGLang's default bucket bounds for sglang:time_to_first_token_seconds. */
    static final double[] TTFT_BUCKETS = {
        0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 4, 6, 8, 10, 20, 40, 60, 80, 100, 200, 400,
    };
    /** The same bounds for the end-to-end histogram, extended for long generations (not SGLang's exact list). */
    static final double[] E2E_BUCKETS = {
        0.1, 0.2, 0.4, 0.6, 0.8, 1, 2, 4, 6, 8, 10, 20, 40, 60, 80, 100, 200, 400, 800, 1600,
    };

    private final PodContext pod;
    private final KvRendezvous rendezvous;
    private long lastTokens;
    private long lastNanos = System.nanoTime();

    SglangMetrics(PodContext pod, KvRendezvous rendezvous) {
        this.pod = pod;
        this.rendezvous = rendezvous;
    }

    String render() {
        EngineStats stats = pod.stats();
        long now = System.nanoTime();
        double seconds = pod.loop().engineSeconds(now - lastNanos);
        double throughput = seconds > 0 ? (stats.generationTokens - lastTokens) / seconds : 0;
        lastTokens = stats.generationTokens;
        lastNanos = now;
        long finished = stats.successfulTotal() + stats.finishedByReason().get(EngineStats.FINISHED_ABORT);
        double hitRate = stats.prefixCacheQueries == 0 ? 0 : (double) stats.prefixCacheHits / stats.prefixCacheQueries;
        return new PrometheusText(PrometheusText.label("model_name", pod.config().modelName()))
                .gauge("sglang:num_running_reqs", "The number of running requests.", pod.loop().running())
                .gauge("sglang:num_queue_reqs", "The number of requests in the waiting queue.", pod.loop().waiting())
                .gauge("sglang:num_prefill_prealloc_queue_reqs",
                        "The number of finished prefills waiting for their decode to take the KV.",
                        rendezvous.depositsWaiting())
                .gauge("sglang:num_decode_prealloc_queue_reqs",
                        "The number of decode requests waiting for their KV.", stats.kvFetchesInFlight)
                .gauge("sglang:token_usage", "The token usage of the KV cache, 0..1.", pod.kvPool().usage())
                .gauge("sglang:max_total_num_tokens", "Maximum total number of tokens in the KV cache pool.",
                        pod.kvPool().capacityTokens())
                .gauge("sglang:gen_throughput", "The generation throughput (token/s).", throughput)
                .gauge("sglang:cache_hit_rate", "The prefix cache hit rate.", hitRate)
                .counter("sglang:prompt_tokens_total", "Number of prefill tokens processed.", stats.promptTokens)
                .counter("sglang:generation_tokens_total", "Number of generation tokens processed.",
                        stats.generationTokens)
                .counter("sglang:num_requests_total", "Number of requests processed.", finished)
                .counter("sglang:num_aborted_requests_total", "Number of requests aborted.",
                        stats.finishedByReason().get(EngineStats.FINISHED_ABORT))
                .histogram("sglang:time_to_first_token_seconds", "Histogram of time to first token in seconds.",
                        stats.timeToFirstToken)
                .histogram("sglang:e2e_request_latency_seconds", "Histogram of End-to-end request latency in seconds",
                        stats.e2eLatency)
                .toString();
    }
}
