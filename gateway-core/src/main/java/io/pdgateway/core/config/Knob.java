package io.pdgateway.core.config;

import java.util.function.Function;

/**
 * One setting of the gateway: its environment variable, the routingConfig field that overrides it per profile (null
 * when a profile cannot), its default, and its rule. Every setting is one row of {@link Knobs}, so the environment,
 * the profile overrides and the documentation read the same table.
 *
 * @param inKnobs for a per-profile knob, reads its current value from a {@link PdKnobs} (the value a profile that does
 *     not set the field keeps); null otherwise
 * @param fatal a bad value stops start-up instead of keeping the default (ROUTING_ALGORITHM, AIBRIX_TRT_MACHINE_ID)
 */
public record Knob<T>(String env, String profileKey, T fallback, KnobRule<T> rule, Function<PdKnobs, T> inKnobs,
        boolean fatal) {

    /** A gateway-wide setting: environment only. */
    public static <T> Knob<T> env(String env, T fallback, KnobRule<T> rule) {
        return new Knob<>(env, null, fallback, rule, null, false);
    }

    /** A gateway-wide setting whose bad value stops start-up. */
    public static <T> Knob<T> fatal(String env, T fallback, KnobRule<T> rule) {
        return new Knob<>(env, null, fallback, rule, null, true);
    }

    /** A PD knob: an environment default that a profile's routingConfig may override (profileKey null: env only). */
    public static <T> Knob<T> pd(String env, String profileKey, T fallback, KnobRule<T> rule,
            Function<PdKnobs, T> inKnobs) {
        return new Knob<>(env, profileKey, fallback, rule, inKnobs, false);
    }
}
