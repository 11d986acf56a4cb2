package io.pdgateway.server.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.pdgateway.core.cache.CacheViews;
import io.pdgateway.core.predict.PrefillModels;
import java.util.List;

/**
 * How well the gateway's models of the pods hold: pd_prefill_time_model_error{namespace, pod_name} is each prefill
 * pod's mean relative error of predicted against measured prefill time over its recent legs (the predicted_ttft policy
 * trusts it; a value that stays above ~0.3 means the pod's latency is not what its prompt and queue explain), and
 * pd_prefix_cache_model_blocks is how many KV blocks the gateway believes the pods hold in all, the memory its cache
 * model takes (about 100 bytes a block).
 */
public final class RoutingModelGauges {
    private final PrefillModels prefillModels;
    private final PodSeries errors;

    public RoutingModelGauges(MeterRegistry registry, PrefillModels prefillModels, CacheViews caches) {
        this.prefillModels = prefillModels;
        this.errors = new PodSeries(registry, id -> List.of(PodSeries.gauge(registry, "pd_prefill_time_model_error",
                "Mean relative error of the pod's predicted prefill time over its recent legs", id,
                () -> prefillModels.error(id))));
        Gauge.builder("pd_prefix_cache_model_blocks", caches, CacheViews::totalBlocks)
                .description("KV blocks the gateway's cache model believes the pods hold, over all pods")
                .register(registry);
    }

    /** Follows the pods that have a prefill-time model; call about once a second. */
    public void sync() {
        errors.sync(prefillModels.podIds());
    }
}
