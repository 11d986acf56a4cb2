package io.pdgateway.core.config;

/** Where knob values come from: the environment, or a profile's routingConfig over the environment's values. */
public interface KnobSource {
    /** The knob's value here; a value that breaks the knob's rule keeps the default (with a warning) or, fatal, throws. */
    <T> T get(Knob<T> knob);
}
