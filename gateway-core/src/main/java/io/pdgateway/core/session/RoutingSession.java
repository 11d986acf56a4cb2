package io.pdgateway.core.session;

import io.pdgateway.core.bucket.BucketPlan;
import io.pdgateway.core.cache.CacheHold;
import io.pdgateway.core.cache.CacheModel;
import io.pdgateway.core.cache.CacheViews;
import io.pdgateway.core.bucket.BucketServe;
import io.pdgateway.core.config.BucketServeMode;
import io.pdgateway.core.config.KnobsResolver;
import io.pdgateway.core.config.PdKnobs;
import io.pdgateway.core.config.RoutingSettings;
import io.pdgateway.core.ledger.RemoteLoad;
import io.pdgateway.core.ledger.RequestLedger;
import io.pdgateway.core.ledger.SessionTable;
import io.pdgateway.core.ledger.TokenCharger;
import io.pdgateway.core.ledger.TokenLedger;
import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.model.Profile;
import io.pdgateway.core.model.ScrapedMetrics;
import io.pdgateway.core.outlier.OutlierDetector;
import io.pdgateway.core.predict.PrefillModels;
import io.pdgateway.core.routing.ClusterLoad;
import io.pdgateway.core.routing.PdCascade;
import io.pdgateway.core.routing.PrefixLookup;
import io.pdgateway.core.routing.RouteDecider;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.RouteRequest;
import io.pdgateway.core.routing.Router;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Strategy;
import io.pdgateway.core.routing.StrategyResolver;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * All routing state of one gateway process behind one small API: {@link #admit} resolves a request's strategy and
 * knobs, {@link #route} chooses its pods and charges the ledgers and the prefix-cache view in one step, the returned
 * {@link Lease} releases them, and {@link #tick} runs the periodic upkeep (drain-rate snapshots, cache capacities, the
 * token_load janitor, adaptive bucket replanning, dropping pods that left discovery). Time comes from the injected
 * {@link SessionClock} and randomness from the seed, so the server, the routing simulator, the Envoy endpoint picker
 * and the JMH benchmark all make the same decisions for the same inputs.
 *
 * <p>Thread-safe. A selection and its charges run under the request model's lock only: models never wait on each
 * other, and no lock is held across I/O (there is none here).
 */
public final class RoutingSession {
    /** Drain-rate snapshots and prefix-index expiry run on every tick; the caller ticks about once a second. */
    public static final long TICK_NANOS = 1_000_000_000L;
    /** Spec, token_load: the janitor runs once a minute. */
    static final long JANITOR_NANOS = 60_000_000_000L;
    /** Adaptive bucket plans follow the traffic within seconds; replanning more often would only chase noise. */
    static final long REPLAN_NANOS = 5_000_000_000L;

    private final RoutingSettings settings;
    private final Supplier<ClusterSnapshot> pods;
    private final Function<Pod, PodMetrics> metrics;
    private final SessionClock clock;
    private final long seed;
    private final Consumer<String> warn;
    private final RouteDecider decider;
    private final KnobsResolver knobs;
    private final RequestLedger requests = new RequestLedger();
    private final TokenLedger tokens = new TokenLedger();
    private final SessionTable sessions;
    private final CacheViews caches;
    private final PrefillModels prefillModels;
    private final TokenCharger charger;
    private final BucketServe bucketServe;
    private final Map<String, ModelLane> lanes = new ConcurrentHashMap<>();
    private volatile Supplier<RemoteLoad> remote = () -> RemoteLoad.NONE;
    private volatile OutlierDetector outliers;
    private ClusterSnapshot lastSeen;
    private Map<String, String> lastPresent = Map.of();
    private long lastJanitorNanos;
    private long lastReplanNanos;

    /**
     * @param pods the current view of discovery
     * @param metrics each pod's last engine scrape ({@link PodMetrics#ABSENT} when none or stale)
     * @param decider what decides (the production {@link Router} unless a simulator compares another)
     * @param warn where the session reports what it ignored (bad profile values) or forced (TTL releases)
     */
    public RoutingSession(RoutingSettings settings, Supplier<ClusterSnapshot> pods, Function<Pod, PodMetrics> metrics,
            RouteDecider decider, SessionClock clock, long seed, Consumer<String> warn) {
        this.settings = settings;
        this.pods = pods;
        this.metrics = metrics;
        this.clock = clock;
        this.seed = seed;
        this.warn = warn;
        this.decider = decider;
        this.knobs = new KnobsResolver(settings.pd(), warn);
        this.sessions = new SessionTable(settings.tokenLoadMaxSessions());
        this.charger = new TokenCharger(tokens, sessions);
        this.caches = new CacheViews(this::capacityBlocks);
        this.prefillModels = new PrefillModels(pod -> knobs.resolve(pod.routingConfig(null)).prefillTimeModel(),
                pod -> knobs.resolve(pod.routingConfig(null)).prefillModelFadeMillis());
        if (settings.bucketServe() && !settings.promptLengthBucketing()) {
            warn.accept("AIBRIX_BUCKET_SERVE=true needs AIBRIX_PROMPT_LENGTH_BUCKETING=true as well; adaptive bucket "
                    + "serving stays off");
        }
        this.bucketServe = settings.adaptiveBuckets()
                ? new BucketServe(settings.bucketServeMode() == BucketServeMode.THROUGHPUT) : null;
        long now = clock.nanoTime();
        this.lastJanitorNanos = now;
        this.lastReplanNanos = now;
    }

    /** A session with the production router. */
    public static RoutingSession create(RoutingSettings settings, Supplier<ClusterSnapshot> pods,
            Function<Pod, PodMetrics> metrics, SessionClock clock, long seed, Consumer<String> warn) {
        return new RoutingSession(settings, pods, metrics, productionRouter(settings), clock, seed, warn);
    }

    /**
     * The pod's prefix-cache capacity in blocks: its engine's reported KV size (vLLM's cache_config_info, SGLang's
     * max_total_num_tokens), else kvCacheCapacityTokens of its profile, else the environment's.
     */
    private int capacityBlocks(Pod pod) {
        double tokens = metrics.apply(pod).kvCapacityTokens();
        if (!(tokens > 0)) {
            tokens = knobs.resolve(pod.routingConfig(null)).kvCacheCapacityTokens();
        }
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, tokens / settings.prefixCacheBlockTokens()));
    }

    /** The spec's strategies and cascade, configured by the settings. */
    public static Router productionRouter(RoutingSettings settings) {
        return new Router(PdCascade.of(settings));
    }

    /**
     * Admits a request: its model (unknown → refused), strategy (lockedRoutingStrategy > header > profile >
     * ROUTING_ALGORITHM; an unknown header → refused), profile, knobs, and what the prompt must be measured for.
     */
    public Admission admit(String modelName, String strategyHeader, String profileHeader) {
        ModelPods model = modelName == null ? null : pods.get().model(modelName);
        if (model == null) {
            return Admission.refused(Admission.Reason.UNKNOWN_MODEL, "no discovered pod serves the model");
        }
        String profile = profileHeader == null || profileHeader.isBlank() ? null : profileHeader.trim();
        StrategyResolver.Resolution resolution = StrategyResolver.resolve(model.config(), strategyHeader, profile,
                settings.defaultStrategy());
        if (resolution.error() != null) {
            return Admission.refused(Admission.Reason.UNKNOWN_STRATEGY, resolution.error());
        }
        Profile resolved = model.config() == null ? null : model.config().resolve(profile);
        PdKnobs requestKnobs = knobs.resolve(resolved == null ? null : resolved.routingConfig());
        Strategy strategy = resolution.strategy();
        boolean pd = strategy.isPd();
        PromptNeeds needs = new PromptNeeds(
                settings.promptLengthBucketing() || pd && requestKnobs.prefillScorePolicy().needsTokenCount(),
                strategy.readsPrefixCache() || pd && requestKnobs.prefillScorePolicy().readsPrefixCache());
        return new Admission(model, strategy, resolution.source(), profile, requestKnobs, needs, null, false, null);
    }

    /** Chooses the request's pods and charges them in one step. */
    public Routed route(Admission admission, PromptFeatures features, String requestId, String sessionKey) {
        return route(admission, features, requestId, sessionKey, Set.of(), true);
    }

    /**
     * Chooses among the model's pods less {@code excludedPods} (ids, namespace/name) and charges them in one step: the
     * Envoy endpoint picker's way of honouring the proxy's endpoint subset. Otherwise exactly {@link #route}.
     */
    public Routed route(Admission admission, PromptFeatures features, String requestId, String sessionKey,
            Set<String> excludedPods) {
        return route(admission, features, requestId, sessionKey, excludedPods, true);
    }

    /**
     * Routes the same request again without the prefill pod that failed it, releasing the failed attempt's lease first
     * so the ledgers never hold both. Without the session key: the session-delta rule assumes the prefill pod holds the
     * session's earlier turns, and the pod a retry goes to does not, so it is charged the whole prompt.
     */
    public Routed reroute(Routed failed) {
        failed.lease().release();
        RouteDecision decision = failed.decision();
        Set<String> excluded = new java.util.HashSet<>();
        excluded.add((decision.isPd() ? decision.prefill() : decision.target()).id());
        return route(failed.admission(), failed.features(), failed.requestId(), null, excluded, false);
    }

    private Routed route(Admission admission, PromptFeatures features, String requestId, String sessionKey,
            Set<String> excluded, boolean firstAttempt) {
        long start = clock.nanoTime();
        // The model as discovery sees it now, not as it was at admission: a pod may have left in between.
        ModelPods current = pods.get().model(admission.model().model());
        ModelPods model = current != null ? current : admission.model();
        RouteRequest request = new RouteRequest(model.model(), requestId, features.promptTokens(),
                admission.strategy(), admission.profile(), admission.knobs(), features.prefixHashes(), sessionKey,
                excluded, admission.pairRefusal());
        ModelLane lane = lane(model.model());
        CacheModel cache = caches.model(model.model());
        RouteDecision decision;
        Lease lease = Lease.NONE;
        synchronized (lane) {
            lane.admitting(admission);
            RemoteLoad others = remote.get();
            ClusterLoad load = new ClusterLoad(requests, tokens, metrics, others, prefillModels, start,
                    clock.epochMillis()).reading(lane.rows.refresh(model, requests, tokens, others)).using(lane.buffers)
                    .keepingScores(admission.explain()).withPrefixDemand(lane.demand)
                    .readingPrefillModels(lane.prefillRows);
            if (metrics instanceof ScrapedMetrics store) {
                load.readingMetrics(lane.metricsRows.refresh(lane.rows.slots(), store), store);
            }
            OutlierDetector ejecting = outliers;
            if (ejecting != null && ejecting.anyEjected(start)) {
                load.ejecting(pod -> ejecting.ejected(pod, start));
            }
            PrefixLookup prefix = new PrefixLookup(cache, request.prefixHashes(), model,
                    settings.prefixCacheBlockTokens(), lane.prefixMatch)
                    .positionedBy(lane.rows.slots().computingPositions());
            RoutingContext context = new RoutingContext(request, model, load, prefix, lane.random,
                    settings.stddevFactor(), bucketServe == null ? BucketPlan.EMPTY : bucketServe.plan());
            decision = decider.route(context);
            if (decision.verdict().routed()) {
                // Spec, token_load charge: request_cost + new_tokens to the prefill pod, the prompt to the decode pod.
                TokenLedger.Charge tokenCharge = decision.isPd()
                        ? charger.charge(request, decision, prefix.match(), features.bodyTokenEstimate(), start) : null;
                // The pod that computes the prompt now holds its blocks, so the next decision sees them.
                Pod computing = decision.isPd() ? decision.prefill() : decision.target();
                int cachedBlocks = prefix.match().blocks(computing);
                long cached = prefix.match().cachedTokens(cachedBlocks, request.promptTokens());
                long uncached = request.promptTokens() - cached;
                PrefillModels.Ticket prefillLeg = decision.isPd()
                        ? prefillModels.dispatched(decision.prefill(), uncached, cached, start) : null;
                CacheHold hold = cache.hold(computing, request.prefixHashes(), caches.capacityBlocks(computing));
                caches.routed(computing, request.promptTokens(), cached);
                lane.recordDemand(request.prefixHashes(), start);
                lease = new Lease(requests.charge(decision), tokenCharge, cache, hold, cachedBlocks, prefillModels,
                        prefillLeg, clock);
            }
        }
        if (decision.verdict().routed()) {
            // A retry is the same request: the length histogram counted it with its first decision.
            if (bucketServe != null && admission.strategy().isPd() && firstAttempt) {
                bucketServe.record(request.model(), request.promptTokens());
            }
        }
        return new Routed(decision, lease, admission, features, requestId, clock.nanoTime() - start);
    }

    private ModelLane lane(String model) {
        ModelLane lane = lanes.get(model);
        return lane != null ? lane : lanes.computeIfAbsent(model, m -> new ModelLane(seed ^ m.hashCode() * 0x9E3779B97F4A7C15L));
    }

    /**
     * Periodic upkeep; call about once a second (the server from a worker thread, the simulator on its virtual clock).
     * Drops the state of pods that left discovery, snapshots drain rates, expires prefix blocks, runs the token_load
     * janitor once a minute and replans adaptive buckets every five seconds. Returns what changed for the gauges.
     */
    public synchronized Upkeep tick() {
        long now = clock.nanoTime();
        ClusterSnapshot snapshot = pods.get();
        if (snapshot != lastSeen) {
            lastPresent = present(snapshot);
            caches.retainOnly(snapshot);
            prefillModels.retainOnly(lastPresent.keySet());
            lanes.keySet().retainAll(modelNames(snapshot));
            OutlierDetector ejecting = outliers;
            if (ejecting != null) {
                ejecting.retainOnly(lastPresent.keySet());
            }
            lastSeen = snapshot;
        }
        // Every tick, not only on a change: a decision made on the previous view may have charged a pod since.
        requests.retainOnly(lastPresent);
        List<String> dropped = tokens.retainOnly(lastPresent);
        requests.drain().tick(now);
        caches.refreshCapacities();
        TokenLedger.Sweep sweep = NO_SWEEP;
        if (now - lastJanitorNanos >= JANITOR_NANOS) {
            lastJanitorNanos = now;
            sessions.expire(now);
            sweep = tokens.sweep(now, warn);
        }
        BucketPlan plan = now - lastReplanNanos >= REPLAN_NANOS ? replanBuckets() : null;
        return new Upkeep(dropped, sweep.forgottenPods(), sweep.forcedReleases(), plan);
    }

    /**
     * Recomputes the adaptive bucket plan from the traffic seen since the last plan ({@link #tick} does it every five
     * seconds). Returns the new plan, or null when adaptive bucket serving is off.
     */
    public synchronized BucketPlan replanBuckets() {
        if (bucketServe == null) {
            return null;
        }
        long now = clock.nanoTime();
        BucketPlan plan = bucketServe.replan(pods.get(), (now - lastReplanNanos) / 1e9);
        lastReplanNanos = now;
        return plan;
    }

    /**
     * What one tick changed: pods whose token counters were dropped (left discovery), pods the janitor forgot, token
     * charges it force-released (a leak, or a request longer than its TTL), and a new bucket plan or null.
     */
    public record Upkeep(List<String> droppedPods, List<String> forgottenPods, int forcedReleases,
            BucketPlan newPlan) {}

    private static final TokenLedger.Sweep NO_SWEEP = new TokenLedger.Sweep(List.of(), 0);

    /** Every pod of the view, id → address (a pod back at another address is another pod). */
    private static Map<String, String> present(ClusterSnapshot snapshot) {
        Map<String, String> present = new HashMap<>();
        for (ModelPods model : snapshot.models()) {
            for (Pod pod : model.pods()) {
                present.put(pod.id(), pod.address());
            }
        }
        return present;
    }

    private static Set<String> modelNames(ClusterSnapshot snapshot) {
        Set<String> names = new java.util.HashSet<>();
        for (ModelPods model : snapshot.models()) {
            names.add(model.model());
        }
        return names;
    }

    /**
     * What this replica publishes to the others (through Redis): per pod its running requests and, with
     * {@code shareDecodeLedger}, its decode ledger (tokens, requests and their age sum), stamped now.
     */
    public Map<String, RemoteLoad.PodLoad> publishedLoad(boolean shareDecodeLedger) {
        return RemoteLoad.published(requests, tokens, shareDecodeLedger, clock.nanoTime(), clock.epochMillis());
    }

    /**
     * Where outlier detection's verdicts come from: the edge reports refused connections and failed scrapes to it,
     * and routing leaves its ejected pods out. None (no pod ejected) until set.
     */
    public void ejectWith(OutlierDetector detector) {
        this.outliers = detector;
    }

    /** Where the other replicas' charges come from (Redis); none until set. */
    public void shareWith(Supplier<RemoteLoad> remoteLoad) {
        this.remote = remoteLoad;
    }

    /** The current adaptive bucket plan, or null when the feature is off. */
    public BucketPlan bucketPlan() {
        return bucketServe == null ? null : bucketServe.plan();
    }

    public RequestLedger requests() {
        return requests;
    }

    public TokenLedger tokens() {
        return tokens;
    }

    /** Each pod's fitted prefill-time model (predicted_ttft; its errors are a metric). */
    public PrefillModels prefillModels() {
        return prefillModels;
    }

    /** The prefix-cache views; also where engines' KV events go. */
    public CacheViews caches() {
        return caches;
    }

    public RoutingSettings settings() {
        return settings;
    }

    public SessionClock clock() {
        return clock;
    }

    /** The model's prefix demand for the prompt's first {@code blocks} blocks, as its next decision would read it now. */
    double prefixDemand(String model, long[] blockHashes, int blocks) {
        ModelLane lane = lanes.get(model);
        return lane == null ? 0 : lane.demandNow(blockHashes, blocks, clock.nanoTime());
    }

    /** Sessions remembered for the session-delta charge. */
    public int sessionCount() {
        return sessions.size();
    }
}
