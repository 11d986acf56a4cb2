package io.pdgateway.routingsim.policy;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.routing.PdCascade;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.Router;
import io.pdgateway.core.routing.RoutingContext;

/**
 * The production router, unchanged: {@link Router} over {@link PdCascade} with the run's bucketing setting. Which
 * scoring policies it uses comes from the gateway environment of the policy's {@link PolicySpec}, as in production.
 */
public final class CascadePolicy implements RoutingPolicy {
    private final Router router;

    public CascadePolicy(GatewaySettings settings) {
        // The one place the simulator builds the cascade: when adaptive bucket serving (issue 9) makes PdCascade read
        // AIBRIX_BUCKET_SERVE from the settings, it is passed here and every pd policy runs with it.
        this.router = new Router(new PdCascade(settings.promptLengthBucketing()));
    }

    @Override
    public RouteDecision decide(RoutingContext context, ModelPods model) {
        return router.route(context, model);
    }
}
