package io.pdgateway.core.model;

import java.util.Map;
import java.util.Optional;

/**
 * A profile's routingConfig object. The fields the cascade reads are typed; every other key (the per-profile
 * knobs of the spec: prefillRequestTimeout, the spread thresholds, the token-load knobs, the watchdog timeouts)
 * stays in {@link #raw} so later stages can read their override without a schema change here.
 *
 * @param promptLenBucketMinLength inclusive lower bound, default 0
 * @param promptLenBucketMaxLength inclusive upper bound; 0 means unlimited
 * @param combined true marks a standard inference pod
 */
public record RoutingConfig(
        int promptLenBucketMinLength,
        int promptLenBucketMaxLength,
        boolean combined,
        String prefillScorePolicy,
        String decodeScorePolicy,
        Map<String, Object> raw) {

    /** What a pod without a profile gets: any prompt length, not combined, policies from the environment. */
    public static final RoutingConfig EMPTY = new RoutingConfig(0, 0, false, null, null, Map.of());

    public RoutingConfig {
        raw = Map.copyOf(raw);
    }

    /** True when this range includes the prompt length; both ends inclusive, max 0 = unlimited, min > max never matches. */
    public boolean coversPromptLength(int promptTokens) {
        int min = Math.max(0, promptLenBucketMinLength);
        int max = promptLenBucketMaxLength <= 0 ? Integer.MAX_VALUE : promptLenBucketMaxLength;
        if (min > max) {
            return false;
        }
        return promptTokens >= min && promptTokens <= max;
    }

    /** A per-profile numeric override of an environment default, if the profile sets one. */
    public Optional<Double> number(String key) {
        Object value = raw.get(key);
        return value instanceof Number n ? Optional.of(n.doubleValue()) : Optional.empty();
    }
}
