package io.pdgateway.server.routing;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.config.KnobsResolver;
import io.pdgateway.core.config.PdKnobs;
import io.pdgateway.core.model.Profile;
import io.pdgateway.core.model.RoutingConfig;
import io.pdgateway.core.ledger.RequestLedger;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.routing.PdCascade;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.RouteRequest;
import io.pdgateway.core.routing.Router;
import io.pdgateway.core.routing.StrategyResolver;
import io.pdgateway.core.spec.SpecStrategies;
import io.pdgateway.server.discovery.PodSource;
import io.pdgateway.server.front.ApiError;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The routing edge: resolves the strategy, runs the pure router over the current snapshot and charges the ledger in
 * the same critical section, so concurrent selections see each other's charges (spec, token_load lifecycle). The
 * lock covers only in-memory work: never I/O.
 */
public final class RoutingService {
    private static final Logger LOG = LoggerFactory.getLogger(RoutingService.class);
    private final PodSource pods;
    private final GatewaySettings settings;
    private final RequestLedger ledger = new RequestLedger();
    private final Router router;
    private final RandomGenerator random;
    private final Object selectionLock = new Object();
    private final KnobsResolver knobsResolver;

    public RoutingService(PodSource pods, GatewaySettings settings, long seed) {
        this.pods = pods;
        this.settings = settings;
        this.router = new Router(PdCascade.standard(settings.promptLengthBucketing()));
        this.random = new SplittableRandom(seed);
        this.knobsResolver = new KnobsResolver(settings.pd(), warning -> LOG.warn("{}", warning));
    }

    /** Either a decision with its charge, or the error to answer with. */
    public record Outcome(RouteDecision decision, RequestLedger.Charge charge, ModelPods model, String strategySource,
            PdKnobs knobs, ApiError error) {}

    public ModelPods model(String name) {
        return pods.current().model(name);
    }

    /**
     * @param promptTokens the prompt's cl100k token count, or -1 when the caller has not counted (only bucketing needs it)
     * @param pdCheck runs when the strategy is pd, before any pod is selected (reference §1.1: SGLang's body
     *     validation); a non-null error is the answer
     */
    public Outcome route(String modelName, String requestId, String strategyHeader, String profileHeader, int promptTokens,
            Function<ModelPods, ApiError> pdCheck) {
        ModelPods model = pods.current().model(modelName);
        if (model == null) {
            return new Outcome(null, null, null, null, null, ApiError.of(404, "The model `" + modelName + "` does not exist.",
                    "model_not_found").withParam("model"));
        }
        String profile = profileHeader == null || profileHeader.isBlank() ? null : profileHeader.trim();
        StrategyResolver.Resolution resolution = StrategyResolver.resolve(model.config(), strategyHeader, profile,
                settings.defaultStrategy());
        if (resolution.error() != null) {
            return new Outcome(null, null, model, null, null,
                    ApiError.of(400, resolution.error(), "invalid_routing_strategy").withParam("routing-strategy"));
        }
        if (SpecStrategies.PD.equals(resolution.strategy())) {
            ApiError refused = pdCheck.apply(model);
            if (refused != null) {
                return new Outcome(null, null, model, null, null, refused);
            }
        }
        Profile resolvedProfile = model.config() == null ? null : model.config().resolve(profile);
        PdKnobs knobs = knobs(resolvedProfile == null ? null : resolvedProfile.routingConfig());
        RouteRequest request = new RouteRequest(modelName, requestId, Math.max(0, promptTokens), resolution.strategy(),
                profile);
        RouteDecision decision;
        RequestLedger.Charge charge = null;
        synchronized (selectionLock) {
            decision = router.route(request, model, ledger, random);
            if (decision.verdict().routed()) {
                charge = ledger.charge(decision);
            }
        }
        LOG.debug("request {}: strategy {} (from {}), {}: {}", requestId, resolution.strategy(), resolution.source(),
                decision.verdict(), decision.reason());
        return new Outcome(decision, charge, model, resolution.source(), knobs, null);
    }

    private PdKnobs knobs(RoutingConfig config) {
        return knobsResolver.resolve(config);
    }

    /** True when routing this model's request may need the prompt's token count. */
    public boolean needsPromptTokens() {
        return settings.promptLengthBucketing();
    }

    public RequestLedger ledger() {
        return ledger;
    }

    public GatewaySettings settings() {
        return settings;
    }
}
