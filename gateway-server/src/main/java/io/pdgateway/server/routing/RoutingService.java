package io.pdgateway.server.routing;

import io.pdgateway.core.bucket.BucketPlan;
import io.pdgateway.core.bucket.BucketServe;
import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.config.KnobsResolver;
import io.pdgateway.core.config.PdKnobs;
import io.pdgateway.core.ledger.Charges;
import io.pdgateway.core.ledger.RemoteLoad;
import io.pdgateway.core.ledger.RequestLedger;
import io.pdgateway.core.ledger.SessionTable;
import io.pdgateway.core.ledger.TokenCharger;
import io.pdgateway.core.ledger.TokenLedger;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.Profile;
import io.pdgateway.core.prefix.PrefixIndex;
import io.pdgateway.core.routing.ClusterLoad;
import io.pdgateway.core.routing.PdCascade;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.RouteRequest;
import io.pdgateway.core.routing.Router;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.StrategyResolver;
import io.pdgateway.core.spec.SpecPolicies;
import io.pdgateway.core.spec.SpecStrategies;
import io.pdgateway.server.discovery.PodSource;
import io.pdgateway.server.front.ApiError;
import io.pdgateway.server.scrape.MetricsStore;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.Supplier;
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
    private final TokenLedger tokens = new TokenLedger();
    private final SessionTable sessions;
    private final BucketServe bucketServe;
    private long lastReplanNanos = System.nanoTime();
    private final TokenCharger charger;
    private final Object selectionLock = new Object();

    private volatile Supplier<RemoteLoad> remote = () -> RemoteLoad.NONE;

    public RoutingService(PodSource pods, GatewaySettings settings, MetricsStore metrics, long seed) {
        this.pods = pods;
        this.settings = settings;
        this.metrics = metrics;
        this.router = new Router(new PdCascade(settings.promptLengthBucketing()));
        this.random = new SplittableRandom(seed);
        this.knobsResolver = new KnobsResolver(settings.pd(), warning -> LOG.warn("{}", warning));
        this.sessions = new SessionTable(settings.tokenLoadMaxSessions());
        if (settings.bucketServe() && !settings.promptLengthBucketing()) {
            LOG.warn("AIBRIX_BUCKET_SERVE=true needs AIBRIX_PROMPT_LENGTH_BUCKETING=true as well; adaptive bucket "
                    + "serving stays off");
        }
        this.bucketServe = settings.bucketServe() && settings.promptLengthBucketing()
                ? new BucketServe(GatewaySettings.BUCKET_SERVE_THROUGHPUT.equals(settings.bucketServeMode())) : null;
        this.charger = new TokenCharger(tokens, sessions, prefixIndex);
    }

    /**
     * The request's model, strategy and knobs, and what its prompt must be measured for; or the error to answer.
     *
     * @param needsTokenCount bucketing or the conductor policy needs the cl100k count, not an estimate
     * @param needsPrefixHashes a policy or strategy will look the prompt up in the prefix index
     */
    public record Preparation(ModelPods model, String strategy, String strategySource, String profile, PdKnobs knobs,
            boolean needsTokenCount, boolean needsPrefixHashes, ApiError error) {}

    /** The model's pods in the current view, or null when the model is unknown. */
    public ModelPods model(String name) {
        return pods.current().model(name);
    }

    /**
     * @param pdCheck runs when the strategy is pd, before any pod is selected (reference §1.1: SGLang's body
     *     validation); a non-null error is the answer
     */
    public Preparation prepare(String modelName, String strategyHeader, String profileHeader,
            Function<ModelPods, ApiError> pdCheck) {
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
        if (SpecStrategies.PD.equals(resolution.strategy())) {
            ApiError refused = pdCheck.apply(model);
            if (refused != null) {
                return failed(refused);
            }
        }
        Profile resolved = model.config() == null ? null : model.config().resolve(profile);
        PdKnobs knobs = knobsResolver.resolve(resolved == null ? null : resolved.routingConfig());
        String strategy = resolution.strategy();
        boolean pd = SpecStrategies.PD.equals(strategy);
        String prefillPolicy = knobs.prefillScorePolicy();
        boolean needsTokens = settings.promptLengthBucketing() || pd && SpecPolicies.CONDUCTOR.equals(prefillPolicy);
        boolean needsHashes = SpecStrategies.PREFIX_CACHE.equals(strategy) || pd
                && (SpecPolicies.PREFIX_CACHE.equals(prefillPolicy) || SpecPolicies.CONDUCTOR.equals(prefillPolicy)
                || SpecPolicies.HYBRID_CACHE_LOAD.equals(prefillPolicy));
        return new Preparation(model, strategy, resolution.source(), profile, knobs, needsTokens, needsHashes, null);
    }

    private static Preparation failed(ApiError error) {
        return new Preparation(null, null, null, null, null, false, false, error);
    }

    /** A decision with its charges and the knobs it was made with. */
    public record Outcome(RouteDecision decision, Charges charge, ModelPods model, PdKnobs knobs, long routingNanos) {}

    public Outcome route(Preparation prep, String requestId, PromptFeatures features, String sessionKey) {
        return route(prep, requestId, features, sessionKey, Set.of());
    }

    /**
     * The same request routed again without {@code failed} (the exchange's prefill retry), on the same features. The
     * caller has released the first decision's charges; this one charges its own. Without the session key: the
     * session-delta rule assumes the prefill pod holds the session's earlier turns, and the pod a retry goes to does
     * not, so it is charged the whole prompt (and the session's remembered size stays as the first decision left it).
     */
    public Outcome reroute(Preparation prep, String requestId, PromptFeatures features, Pod failed) {
        return route(prep, requestId, features, null, Set.of(failed.id()));
    }

    private Outcome route(Preparation prep, String requestId, PromptFeatures features, String sessionKey,
            Set<String> excludedPods) {
        long start = System.nanoTime();
        RouteRequest request = new RouteRequest(prep.model().model(), requestId, features.promptTokens(),
                prep.strategy(), prep.profile(), prep.knobs(), features.prefixHashes(), sessionKey, excludedPods);
        RouteDecision decision;
        Charges charge = null;
        synchronized (selectionLock) {
            ClusterLoad load = new ClusterLoad(ledger, tokens, metrics::metrics, remote.get(), start,
                    System.currentTimeMillis());
            RoutingContext context = new RoutingContext(request, load, prefixIndex, random, settings.stddevFactor(),
                    bucketServe == null ? null : bucketServe.plan());
            decision = router.route(context, prep.model());
            if (decision.verdict().routed()) {
                // Spec, token_load charge: request_cost + new_tokens to the prefill pod, the prompt to the decode pod.
                TokenLedger.Charge tokenCharge = decision.isPd()
                        ? charger.charge(request, decision, features.bodyTokenEstimate(), start) : null;
                charge = new Charges(ledger.charge(decision), tokenCharge, System::nanoTime);
            }
        }
        warmPrefixIndex(request, decision);
        // A retry is the same request: the length histogram counted it with its first decision.
        if (bucketServe != null && SpecStrategies.PD.equals(prep.strategy()) && decision.verdict().routed()
                && excludedPods.isEmpty()) {
            bucketServe.record(request.model(), request.promptTokens());
        }
        long elapsed = System.nanoTime() - start;
        if (LOG.isDebugEnabled()) { // the reason is built on demand: only pay for it when it is logged
            LOG.debug("request {}: strategy {} (from {}), {} [{}]: {}", requestId, prep.strategy(),
                    prep.strategySource(), decision.verdict(), decision.step(), decision.reason());
        }
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

    /**
     * The token_load janitor (spec: once a minute): force-releases charges past AIBRIX_TOKEN_LOAD_TTL_SECONDS with a
     * warning, forgets pods idle for a minute (returned, so their metric series go too) and expired sessions.
     */
    public List<String> janitor() {
        long now = System.nanoTime();
        PdKnobs env = settings.pd();
        sessions.expire((long) (env.tokenLoadSessionTtlSeconds() * 1e9), now);
        return tokens.sweep((long) (env.tokenLoadTtlSeconds() * 1e9), now, warning -> LOG.warn("{}", warning));
    }

    /** Where the other replicas' charges come from (Redis); none until set. */
    public void shareWith(Supplier<RemoteLoad> remoteLoad) {
        this.remote = remoteLoad;
    }

    /**
     * Recomputes the adaptive bucket plan from the traffic seen (off the request path; about every five seconds).
     * Returns the new plan, or null when adaptive bucket serving is off.
     */
    public BucketPlan replanBuckets() {
        if (bucketServe == null) {
            return null;
        }
        long now = System.nanoTime();
        BucketPlan plan = bucketServe.replan(pods.current(), (now - lastReplanNanos) / 1e9);
        lastReplanNanos = now;
        return plan;
    }

    /** The current adaptive bucket plan, or null when the feature is off. */
    public BucketPlan bucketPlan() {
        return bucketServe == null ? null : bucketServe.plan();
    }

    public TokenLedger tokens() {
        return tokens;
    }

    public RequestLedger ledger() {
        return ledger;
    }

    public GatewaySettings settings() {
        return settings;
    }
}
