package io.pdgateway.core.config;

/** How the engines' Prometheus endpoints are read. */
public record ScrapeSettings(long refreshIntervalMs) {

    public static ScrapeSettings read(KnobSource env) {
        return new ScrapeSettings(env.get(Knobs.POD_METRIC_REFRESH_INTERVAL_MS).longValue());
    }
}
