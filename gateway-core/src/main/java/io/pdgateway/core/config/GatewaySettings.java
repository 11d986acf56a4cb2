package io.pdgateway.core.config;

import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.core.spec.SpecStrategies;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Gateway-wide settings from the environment, with the spec's defaults. Build with {@link #fromEnv}; an unknown
 * ROUTING_ALGORITHM throws (design.md §2: it stops start-up with a clear message), other bad values warn.
 *
 * @param defaultStrategy ROUTING_ALGORITHM
 * @param promptLengthBucketing AIBRIX_PROMPT_LENGTH_BUCKETING
 * @param prefillRequestTimeout AIBRIX_PREFILL_REQUEST_TIMEOUT
 * @param kvConnectorType AIBRIX_KV_CONNECTOR_TYPE, lower case
 * @param maxRequestBodyBytes PD_GATEWAY_MAX_REQUEST_BODY_BYTES
 * @param warnings what did not parse and kept its default, for the caller to log
 */
public record GatewaySettings(
        String defaultStrategy,
        boolean promptLengthBucketing,
        Duration prefillRequestTimeout,
        String kvConnectorType,
        int maxRequestBodyBytes,
        List<String> warnings) {

    /** Spec: AIBRIX_PREFILL_REQUEST_TIMEOUT defaults to 30 seconds. */
    public static final double DEFAULT_PREFILL_REQUEST_TIMEOUT_SECONDS = 30;
    /** Spec: AIBRIX_KV_CONNECTOR_TYPE defaults to shfs. */
    public static final String DEFAULT_KV_CONNECTOR_TYPE = "shfs";
    /**
     * 8 MiB: a 128k-token prompt is about 512 KB of text, so even long-context requests with images inlined as
     * URLs fit many times over, while one client cannot make the gateway buffer an unbounded body.
     */
    public static final int DEFAULT_MAX_REQUEST_BODY_BYTES = 8 * 1024 * 1024;

    public GatewaySettings {
        warnings = List.copyOf(warnings);
    }

    public static GatewaySettings defaults() {
        return fromEnv(Map.of());
    }

    public static GatewaySettings fromEnv(Map<String, String> env) {
        EnvReader reader = new EnvReader(env);
        String strategy = reader.string(SpecEnv.ROUTING_ALGORITHM, SpecStrategies.DEFAULT).toLowerCase(Locale.ROOT);
        if (!SpecStrategies.isSupported(strategy)) {
            throw new IllegalArgumentException(SpecEnv.ROUTING_ALGORITHM + "=" + strategy
                    + " is not a routing strategy this gateway knows; supported: "
                    + String.join(", ", SpecStrategies.SUPPORTED));
        }
        boolean bucketing = reader.bool(SpecEnv.PROMPT_LENGTH_BUCKETING, false);
        double prefillTimeout = reader.positive(SpecEnv.PREFILL_REQUEST_TIMEOUT, DEFAULT_PREFILL_REQUEST_TIMEOUT_SECONDS);
        String connector = reader.string(SpecEnv.KV_CONNECTOR_TYPE, DEFAULT_KV_CONNECTOR_TYPE).toLowerCase(Locale.ROOT);
        int maxBody = (int) reader.positive(SpecEnv.MAX_REQUEST_BODY_BYTES, DEFAULT_MAX_REQUEST_BODY_BYTES);
        return new GatewaySettings(strategy, bucketing, Duration.ofMillis((long) (prefillTimeout * 1000)), connector,
                maxBody, reader.warnings());
    }
}
