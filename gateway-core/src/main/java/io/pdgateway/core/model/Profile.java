package io.pdgateway.core.model;

/** One named profile of the model.aibrix.ai/config annotation. routingStrategy may be null. */
public record Profile(String name, String routingStrategy, RoutingConfig routingConfig) {
    public Profile {
        if (routingConfig == null) {
            routingConfig = RoutingConfig.EMPTY;
        }
    }
}
