package io.pdgateway.core.routing;

import io.pdgateway.core.model.ModelConfig;
import io.pdgateway.core.model.Profile;
import io.pdgateway.core.spec.SpecStrategies;

/**
 * Which strategy routes a request: lockedRoutingStrategy > routing-strategy header > the profile's routingStrategy >
 * ROUTING_ALGORITHM (spec "Step 2", design.md §2). Pure.
 */
public final class StrategyResolver {
    private StrategyResolver() {}

    /** Exactly one of strategy and error is non-null; source says where the strategy came from. */
    public record Resolution(String strategy, String source, String error) {
        static Resolution of(String strategy, String source) {
            return new Resolution(strategy, source, null);
        }
    }

    public static Resolution resolve(ModelConfig config, String header, String profileName, String envDefault) {
        if (config != null && SpecStrategies.isSupported(config.lockedRoutingStrategy())) {
            return Resolution.of(config.lockedRoutingStrategy(), "lockedRoutingStrategy");
        }
        String requested = header == null ? "" : header.trim();
        if (!requested.isEmpty()) {
            if (!SpecStrategies.isSupported(requested)) {
                return new Resolution(null, "header", "incorrect routing strategy " + requested
                        + "; supported: " + String.join(", ", SpecStrategies.SUPPORTED));
            }
            return Resolution.of(requested, "header");
        }
        if (config != null) {
            Profile profile = config.resolve(profileName);
            if (profile != null && SpecStrategies.isSupported(profile.routingStrategy())) {
                return Resolution.of(profile.routingStrategy(), "profile " + profile.name());
            }
        }
        return Resolution.of(envDefault, "ROUTING_ALGORITHM");
    }
}
