package io.pdgateway.server.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.pdgateway.core.bucket.Band;
import io.pdgateway.core.bucket.BucketPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The adaptive bucket plan on /metrics: pd_bucket_serve_band_lower_tokens and pd_bucket_serve_band_upper_tokens per
 * band, labelled model, roleset and band (its index in the model's plan). Replaced whole on every replan, so bands
 * that disappear leave no stale series.
 */
public final class BucketPlanGauges {
    private final MultiGauge lower;
    private final MultiGauge upper;

    public BucketPlanGauges(MeterRegistry registry) {
        lower = MultiGauge.builder("pd_bucket_serve_band_lower_tokens")
                .description("Shortest prompt (tokens, inclusive) the adaptive plan sends to the roleset").register(registry);
        upper = MultiGauge.builder("pd_bucket_serve_band_upper_tokens")
                .description("Longest prompt (tokens, inclusive) the adaptive plan sends to the roleset").register(registry);
    }

    public void show(BucketPlan plan) {
        List<MultiGauge.Row<?>> lows = new ArrayList<>();
        List<MultiGauge.Row<?>> highs = new ArrayList<>();
        for (Map.Entry<String, List<Band>> model : plan.bands().entrySet()) {
            List<Band> bands = model.getValue();
            for (int i = 0; i < bands.size(); i++) {
                Band band = bands.get(i);
                Tags tags = Tags.of("model", model.getKey(), "roleset", band.roleset(), "band", Integer.toString(i));
                lows.add(MultiGauge.Row.of(tags, band.lower()));
                highs.add(MultiGauge.Row.of(tags, band.upper()));
            }
        }
        lower.register(lows, true);
        upper.register(highs, true);
    }
}
