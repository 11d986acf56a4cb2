package io.pdgateway.server.routing;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.config.KnobsResolver;
import io.pdgateway.core.config.PdKnobs;
import io.pdgateway.core.ledger.RequestLedger;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Profile;
import io.pdgateway.core.prefix.PrefixIndex;
import io.pdgateway.core.routing.ClusterLoad;
import io.pdgateway.core.routing.PdCascade;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.RouteRequest;
import io.pdgateway.core.routing.Router;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.StrategyResolver;
import io.pdgateway.core.routing.score.ScoringPolicies;
import io.pdgateway.core.spec.SpecPolicies;
import io.pdgateway.core.spec.SpecStrategies;
import io.pdgateway.server.discovery.PodSource;
import io.pdgateway.server.front.ApiError;
import io.pdgateway.server.scrape.MetricsStore;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The routing edge, in two steps. {@link #prepare} resolves the model, strategy and profile knobs and says what the
 * prompt must be measured for; {@link #route} runs the pure router over the current snapshot and charges the ledger
 * in the same critical section, so concurrent selections see each other's charges (spec, token_load lifecycle). The
 * lock covers in-memory work only, never I/O or tokenization; the prefix index is warmed after it.
 */
public final class RoutingService {
    private static final Logger LOG = LoggerFactory.getLogger(RoutingService.class);

    private final PodSource pods;
    private final GatewaySettings settings;
    private final RequestLedger ledger = new RequestLedger();
    private final MetricsStore metrics;
    private final PrefixIndex prefixIndex = new PrefixIndex(PrefixIndex.DEFAULT_CAPACITY_BLOCKS,
            PrefixIndex.DEFAULT_TTL_NANOS);
    private final Router router;
    private final RandomGenerator random;
    private final KnobsResolver knobsResolver;
    private final Set<String> reportedStandIns = ConcurrentHashMap.newKeySet();
    private final Object selectionLock = new Object();

    public RoutingService(PodSource pods, GatewaySettings settings, MetricsStore metrics, long seed) {
        this.pods = pods;
        this.settings = settings;
        this.metrics = metrics;
        this.router = new Router(new PdCascade(settings.promptLengthBucketing()));
        this.random = new SplittableRandom(seed);
        this.knobsResolver = new KnobsResolver(settings.pd(), warning -> LOG.warn("{}", warning));
    }

    /**
     * The request's model, strategy and knobs, and what its prompt must be measured for; or the error to answer.
     *
     * @param needsTokenCount bucketing or the conductor policy needs the cl100k count, not an estimate
     * @param needsPrefixHashes a policy or strategy will look the prompt up in the prefix index
     */
    public record Preparation(ModelPods model, String strategy, String strategySource, String profile, PdKnobs knobs,
            boolean needsTokenCount, boolean needsPrefixHashes, ApiError error) {}

    public Preparation prepare(String modelName, String strategyHeader, String profileHeader) {
        ModelPods model = pods.current().model(modelName);
        if (model == null) {
            return failed(ApiError.of(404, "The model `" + modelName + "` does not exist.", "model_not_found")
                    .withParam("model"));
        }
        String profile = profileHeader == null || profileHeader.isBlank() ? null : profileHeader.trim();
        StrategyResolver.Resolution resolution = StrategyResolver.resolve(model.config(), strategyHeader, profile,
                settings.defaultStrategy());
        if (resolution.error() != null) {
            return failed(ApiError.of(400, resolution.error(), "invalid_routing_strategy").withParam("routing-strategy"));
        }
        Profile resolved = model.config() == null ? null : model.config().resolve(profile);
        PdKnobs knobs = knobsResolver.resolve(resolved == null ? null : resolved.routingConfig());
        String strategy = resolution.strategy();
        boolean pd = SpecStrategies.PD.equals(strategy);
        String prefillPolicy = knobs.prefillScorePolicy();
        if (pd) {
            reportStandIn(prefillPolicy);
            reportStandIn(knobs.decodeScorePolicy());
        }
        boolean needsTokens = settings.promptLengthBucketing() || pd && SpecPolicies.CONDUCTOR.equals(prefillPolicy);
        boolean needsHashes = SpecStrategies.PREFIX_CACHE.equals(strategy) || pd
                && (SpecPolicies.PREFIX_CACHE.equals(prefillPolicy) || SpecPolicies.CONDUCTOR.equals(prefillPolicy));
        return new Preparation(model, strategy, resolution.source(), profile, knobs, needsTokens, needsHashes, null);
    }

    private static Preparation failed(ApiError error) {
        return new Preparation(null, null, null, null, null, false, false, error);
    }

    private void reportStandIn(String policy) {
        if (!ScoringPolicies.implemented(policy) && reportedStandIns.add(policy)) {
            LOG.warn("scoring policy {} is not implemented yet; it scores as least_request (prefill) or "
                    + "load_balancing (decode) until it lands", policy);
        }
    }

    /** A decision with its charge and the knobs it was made with. */
    public record Outcome(RouteDecision decision, RequestLedger.Charge charge, ModelPods model, PdKnobs knobs,
            long routingNanos) {}

    public Outcome route(Preparation prep, String requestId, PromptFeatures features, String sessionKey) {
        long start = System.nanoTime();
        RouteRequest request = new RouteRequest(prep.model().model(), requestId, features.promptTokens(),
                prep.strategy(), prep.profile(), prep.knobs(), features.prefixHashes(), sessionKey);
        RouteDecision decision;
        RequestLedger.Charge charge = null;
        synchronized (selectionLock) {
            RoutingContext context = new RoutingContext(request, new ClusterLoad(ledger, metrics::metrics, start),
                    prefixIndex, random, settings.stddevFactor());
            decision = router.route(context, prep.model());
            if (decision.verdict().routed()) {
                charge = ledger.charge(decision);
            }
        }
        warmPrefixIndex(request, decision);
        long elapsed = System.nanoTime() - start;
        LOG.debug("request {}: strategy {} (from {}), {} [{}]: {}", requestId, prep.strategy(), prep.strategySource(),
                decision.verdict(), decision.step(), decision.reason());
        return new Outcome(decision, charge, prep.model(), prep.knobs(), elapsed);
    }

    /** The pod that now holds the prompt's KV remembers its prefix: the prefill pod of a pair, or the single pod. */
    private void warmPrefixIndex(RouteRequest request, RouteDecision decision) {
        if (request.prefixHashes().length == 0 || !decision.verdict().routed()) {
            return;
        }
        prefixIndex.add(request.prefixHashes(), decision.isPd() ? decision.prefill().id() : decision.target().id(),
                System.nanoTime());
    }

    /** Periodic upkeep: drain-rate snapshots and prefix-index expiry. Call about once a second. */
    public void tick() {
        long now = System.nanoTime();
        ledger.drain().tick(now);
        prefixIndex.evictExpired(now);
    }

    public RequestLedger ledger() {
        return ledger;
    }

    public GatewaySettings settings() {
        return settings;
    }
}
