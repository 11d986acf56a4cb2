package io.pdgateway.core.routing;

import io.pdgateway.core.model.ModelConfig;
import io.pdgateway.core.model.Profile;
import java.util.Optional;

/**
 * Which strategy routes a request: lockedRoutingStrategy > routing-strategy header > the profile's routingStrategy >
 * ROUTING_ALGORITHM (spec "Step 2", design.md §2). A locked or profile strategy this build does not know is skipped;
 * an unknown header value is the client's error. Pure.
 */
public final class StrategyResolver {
    private StrategyResolver() {}

    /** Exactly one of strategy and error is non-null; source says where the strategy came from. */
    public record Resolution(Strategy strategy, String source, String error) {
        static Resolution of(Strategy strategy, String source) {
            return new Resolution(strategy, source, null);
        }
    }

    /** The longest header value the error repeats: a strategy name is a word, a header may be kilobytes. */
    static final int MAX_ECHOED_CHARS = 64;

    public static Resolution resolve(ModelConfig config, String header, String profileName, Strategy envDefault) {
        if (config != null) {
            Optional<Strategy> locked = Strategy.named(config.lockedRoutingStrategy());
            if (locked.isPresent()) {
                return Resolution.of(locked.get(), "lockedRoutingStrategy");
            }
        }
        String requested = header == null ? "" : header.trim();
        if (!requested.isEmpty()) {
            return Strategy.named(requested).map(s -> Resolution.of(s, "header"))
                    .orElseGet(() -> new Resolution(null, "header", "incorrect routing strategy "
                            + echoed(requested) + "; supported: " + String.join(", ", Strategy.specNames())));
        }
        if (config != null) {
            Profile profile = config.resolve(profileName);
            if (profile != null) {
                Optional<Strategy> fromProfile = Strategy.named(profile.routingStrategy());
                if (fromProfile.isPresent()) {
                    return Resolution.of(fromProfile.get(), "profile " + profile.name());
                }
            }
        }
        return Resolution.of(envDefault, "ROUTING_ALGORITHM");
    }

    /** The client's value as the error repeats it: cut to MAX_ECHOED_CHARS, saying how long it was. */
    private static String echoed(String value) {
        if (value.length() <= MAX_ECHOED_CHARS) {
            return value;
        }
        return value.substring(0, MAX_ECHOED_CHARS) + "... (" + value.length() + " characters)";
    }
}
