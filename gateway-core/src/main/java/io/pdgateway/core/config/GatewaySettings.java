package io.pdgateway.core.config;

import java.util.List;
import java.util.Map;

/**
 * Every gateway-wide setting from the environment, by concern, with the spec's defaults. Build with {@link #fromEnv}.
 * Two values stop start-up with a clear message (design.md §2, spec): an unknown ROUTING_ALGORITHM and an
 * AIBRIX_TRT_MACHINE_ID outside [0, 1024). Every other bad value keeps its default and is reported in
 * {@link #warnings()}.
 */
public record GatewaySettings(RoutingSettings routing, FrontSettings front, EngineSettings engines,
        ScrapeSettings scrape, RedisSettings redis, UpstreamSettings upstream, List<String> warnings) {

    public GatewaySettings {
        warnings = List.copyOf(warnings);
    }

    public static GatewaySettings defaults() {
        return fromEnv(Map.of());
    }

    public static GatewaySettings fromEnv(Map<String, String> env) {
        EnvReader reader = new EnvReader(env);
        return new GatewaySettings(RoutingSettings.read(reader), FrontSettings.read(reader), EngineSettings.read(reader),
                ScrapeSettings.read(reader), RedisSettings.read(reader), UpstreamSettings.read(reader), reader.warnings());
    }

    /** The PD knobs of the environment, which every profile starts from. */
    public PdKnobs pd() {
        return routing.pd();
    }
}
