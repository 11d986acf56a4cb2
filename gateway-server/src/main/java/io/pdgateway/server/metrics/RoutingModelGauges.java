package io.pdgateway.server.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.pdgateway.core.cache.CacheViews;
import io.pdgateway.core.predict.PrefillModels;
import io.pdgateway.server.scrape.EngineCacheHits;
import java.util.List;

/**
 * How well the gateway's models of the pods hold: pd_prefill_time_model_error{namespace, pod_name} is each prefill
 * pod's mean relative error of predicted against measured prefill time over its recent legs (the predicted_ttft policy
 * trusts it; a value that stays above ~0.3 means the pod's latency is not what its prompt and queue explain), and
 * pd_prefix_cache_model_blocks is how many KV blocks the gateway believes the pods hold in all, the memory its cache
 * model takes (about 100 bytes a block). pd_prefix_cache_routed_prompt_tokens_total and
 * pd_prefix_cache_predicted_hit_tokens_total{namespace, pod_name} are the prompt tokens routed to each pod to compute
 * and how many of them its view predicted cached: their rates' ratio is the predicted hit rate. Beside it, what the
 * engines say they served, from their scrapes: pd_prefix_cache_engine_queried_tokens_total and
 * pd_prefix_cache_engine_hit_tokens_total{namespace, pod_name} (vLLM's prefix_cache_queries_total and
 * prefix_cache_hits_total re-exported), and pd_prefix_cache_engine_hit_rate (SGLang's cache_hit_rate, TensorRT-LLM's
 * kv_cache_hit_rate), so one Prometheus job over the gateway shows both.
 */
public final class RoutingModelGauges {
    private final PrefillModels prefillModels;
    private final PodSeries errors;
    private final PodSeries predictedHits;
    private final CacheViews caches;
    private final EngineCacheHits served;
    private final PodSeries servedCounts;
    private final PodSeries servedRates;

    public RoutingModelGauges(MeterRegistry registry, PrefillModels prefillModels, CacheViews caches,
            EngineCacheHits served) {
        this.prefillModels = prefillModels;
        this.errors = new PodSeries(registry, id -> List.of(PodSeries.gauge(registry, "pd_prefill_time_model_error",
                "Mean relative error of the pod's predicted prefill time over its recent legs", id,
                () -> prefillModels.error(id))));
        this.caches = caches;
        this.predictedHits = new PodSeries(registry, id -> List.of(
                PodSeries.counter(registry, "pd_prefix_cache_routed_prompt_tokens", "Prompt tokens routed to the pod "
                        + "to compute (the prefill pod of a pair, or a standard pod)", id, caches,
                        c -> c.routedPromptTokens(id)),
                PodSeries.counter(registry, "pd_prefix_cache_predicted_hit_tokens", "Of the prompt tokens routed to the "
                        + "pod, those its cache view predicted it holds; compare the rate of their ratio with the "
                        + "engine's own (vLLM prefix_cache_hits / prefix_cache_queries)", id, caches,
                        c -> c.predictedCachedTokens(id))));
        // A pod's series appear with its first routed request, not a tick later; they leave with the pod (sync).
        caches.onFirstRouted(predictedHits::add);
        this.served = served;
        this.servedCounts = new PodSeries(registry, id -> List.of(
                PodSeries.counter(registry, "pd_prefix_cache_engine_queried_tokens", "Prompt tokens the pod's engine "
                        + "looked up in its prefix cache (vLLM prefix_cache_queries)", id, served,
                        s -> s.queriedTokens(id)),
                PodSeries.counter(registry, "pd_prefix_cache_engine_hit_tokens", "Of those, the tokens the engine "
                        + "served from its prefix cache (vLLM prefix_cache_hits)", id, served, s -> s.hitTokens(id))));
        this.servedRates = new PodSeries(registry, id -> List.of(PodSeries.gauge(registry,
                "pd_prefix_cache_engine_hit_rate", "The pod's engine's own recent prefix-cache hit rate, 0..1 (SGLang "
                        + "cache_hit_rate, TensorRT-LLM kv_cache_hit_rate)", id, () -> served.hitRate(id))));
        served.onFirstFigures(id -> {
            if (served.counting(id)) {
                servedCounts.add(id);
            }
            if (served.rating(id)) {
                servedRates.add(id);
            }
        });
        Gauge.builder("pd_prefix_cache_model_blocks", caches, CacheViews::totalBlocks)
                .description("KV blocks the gateway's cache model believes the pods hold, over all pods")
                .register(registry);
    }

    /** Follows the pods that have a prefill-time model, a routed prompt or a scraped hit count; about once a second. */
    public void sync() {
        errors.sync(prefillModels.podIds());
        predictedHits.sync(caches.routedPods());
        servedCounts.sync(served.countingPods());
        servedRates.sync(served.ratePods());
    }
}
