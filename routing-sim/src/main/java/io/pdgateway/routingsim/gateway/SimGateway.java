package io.pdgateway.routingsim.gateway;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.config.KnobsResolver;
import io.pdgateway.core.config.PdKnobs;
import io.pdgateway.core.ledger.Charges;
import io.pdgateway.core.ledger.RequestLedger;
import io.pdgateway.core.ledger.SessionTable;
import io.pdgateway.core.ledger.TokenCharger;
import io.pdgateway.core.ledger.TokenLedger;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Profile;
import io.pdgateway.core.prefix.PrefixIndex;
import io.pdgateway.core.routing.ClusterLoad;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.RouteRequest;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.StrategyResolver;
import io.pdgateway.core.spec.SpecPolicies;
import io.pdgateway.core.spec.SpecStrategies;
import io.pdgateway.routingsim.cluster.SimCluster;
import io.pdgateway.routingsim.event.Event;
import io.pdgateway.routingsim.event.EventQueue;
import io.pdgateway.routingsim.policy.RoutingPolicy;
import io.pdgateway.routingsim.workload.SimRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

/**
 * The gateway of one run on the virtual clock: the production ledgers ({@link RequestLedger}, {@link TokenLedger}
 * with its {@link TokenCharger}, {@link SessionTable}), the {@link PrefixIndex}, the strategy and knob resolution, and
 * the periodic upkeep, wired as the server's RoutingService wires them. What is replicated here rather than shared is
 * only glue: the decision and the charges happen at one instant (the server does both under one lock), the prefix index
 * is warmed after, and time comes from the event queue instead of System.nanoTime.
 */
public final class SimGateway {
    /** GatewayServer.UPKEEP_INTERVAL_MS: drain-rate snapshots and prefix-index expiry every second. */
    static final long UPKEEP_NANOS = 1_000_000_000L;
    /** GatewayServer.JANITOR_INTERVAL_MS (spec, token_load): the janitor runs once a minute. */
    static final long JANITOR_NANOS = 60_000_000_000L;
    /**
     * token_load's prompt estimate is request body bytes / 4 (spec). A streaming chat body adds about 90 bytes of
     * JSON around the prompt ({"model":..,"messages":[{"role":"user","content":..}],"max_tokens":..,"stream":true}).
     */
    static final int BODY_ENVELOPE_TOKENS = 22;
    /**
     * The production index hashes 4-byte blocks (AIBRIX_PREFIX_CACHE_BLOCK_SIZE: about one token each, with either
     * tokenizer) and holds PrefixIndex.DEFAULT_CAPACITY_BLOCKS of them.
     */
    static final int PRODUCTION_TOKENS_PER_INDEX_BLOCK = 1;
    /**
     * The simulator's index hashes 64-token blocks instead (every fourth chained KV-block hash, which covers exactly
     * the first 64·k tokens) and holds capacity / 64 of them, so it covers the same number of tokens: match
     * percentages move in steps of 64 tokens instead of one, and indexing a 12k-token Mooncake prompt costs 188
     * updates instead of 12,000. Mooncake's shared prefixes are whole 512-token blocks, so their matches are exact.
     */
    public static final int INDEX_BLOCK_TOKENS = 64;

    private final GatewaySettings settings;
    private final RoutingPolicy policy;
    private final SimCluster cluster;
    private final EventQueue queue;
    private final RequestLedger ledger = new RequestLedger();
    private final TokenLedger tokens = new TokenLedger();
    private final SessionTable sessions;
    private final PrefixIndex prefixIndex;
    private final TokenCharger charger;
    private final SplittableRandom random;
    private final String strategy;
    private final String strategyHeader;
    private final PdKnobs knobs;
    private final boolean needsHashes;
    private final int indexStride;
    private final List<String> warnings = new ArrayList<>();
    private long forcedReleases;

    public SimGateway(GatewaySettings settings, String strategyHeader, RoutingPolicy policy, SimCluster cluster,
            EventQueue queue, int blockSizeTokens, long seed) {
        this.settings = settings;
        this.policy = policy;
        this.cluster = cluster;
        this.queue = queue;
        this.strategyHeader = strategyHeader;
        this.sessions = new SessionTable(settings.tokenLoadMaxSessions());
        this.indexStride = Math.max(1, INDEX_BLOCK_TOKENS / blockSizeTokens);
        int indexBlocks = Math.max(1, PrefixIndex.DEFAULT_CAPACITY_BLOCKS * PRODUCTION_TOKENS_PER_INDEX_BLOCK
                / (blockSizeTokens * indexStride));
        this.prefixIndex = new PrefixIndex(indexBlocks, PrefixIndex.DEFAULT_TTL_NANOS);
        this.charger = new TokenCharger(tokens, sessions, prefixIndex);
        this.random = new SplittableRandom(seed);
        this.warnings.addAll(settings.warnings());
        // RoutingService.prepare, once per run: one model, no config-profile header.
        ModelPods model = cluster.model();
        StrategyResolver.Resolution resolution = StrategyResolver.resolve(model.config(), strategyHeader, null,
                settings.defaultStrategy());
        if (resolution.error() != null) {
            throw new IllegalArgumentException(resolution.error());
        }
        this.strategy = resolution.strategy();
        Profile profile = model.config() == null ? null : model.config().resolve(null);
        this.knobs = new KnobsResolver(settings.pd(), warnings::add)
                .resolve(profile == null ? null : profile.routingConfig());
        boolean pd = SpecStrategies.PD.equals(strategy);
        String prefillPolicy = knobs.prefillScorePolicy();
        this.needsHashes = SpecStrategies.PREFIX_CACHE.equals(strategy) || pd
                && (SpecPolicies.PREFIX_CACHE.equals(prefillPolicy) || SpecPolicies.CONDUCTOR.equals(prefillPolicy)
                || SpecPolicies.HYBRID_CACHE_LOAD.equals(prefillPolicy));
    }

    /** Routes one request now and charges what the decision holds. */
    public Routed route(SimRequest request) {
        long now = queue.now();
        long[] hashes = needsHashes ? indexHashes(request.blockHashes()) : null;
        RouteRequest routeRequest = new RouteRequest(cluster.model().model(), Integer.toString(request.index()),
                request.promptTokens(), strategy, null, knobs, hashes, request.sessionKey());
        ClusterLoad load = new ClusterLoad(ledger, tokens, pod -> cluster.metrics(pod, now), now);
        RoutingContext context = new RoutingContext(routeRequest, load, prefixIndex, random, settings.stddevFactor());
        RouteDecision decision = policy.decide(context, cluster.model());
        Charges charges = null;
        if (decision.verdict().routed()) {
            TokenLedger.Charge tokenCharge = decision.isPd() ? charger.charge(routeRequest, decision,
                    request.promptTokens() + BODY_ENVELOPE_TOKENS, now) : null;
            charges = new Charges(ledger.charge(decision), tokenCharge, queue::now);
            if (routeRequest.prefixHashes().length > 0) {
                prefixIndex.add(routeRequest.prefixHashes(),
                        decision.isPd() ? decision.prefill().id() : decision.target().id(), now);
            }
        }
        return new Routed(decision, charges);
    }

    /** Every {@code indexStride}-th chained block hash: the hash of the first 64·k tokens. */
    private long[] indexHashes(long[] blockHashes) {
        long[] out = new long[blockHashes.length / indexStride];
        for (int i = 0; i < out.length; i++) {
            out[i] = blockHashes[(i + 1) * indexStride - 1];
        }
        return out;
    }

    /** Runs the server's periodic upkeep on the virtual clock while {@code active} says there is work left. */
    public void startUpkeep(BooleanSupplier active) {
        queue.after(UPKEEP_NANOS, new Event() {
            private long sinceJanitor;

            @Override
            public void fire(long now) {
                ledger.drain().tick(now);
                prefixIndex.evictExpired(now);
                sinceJanitor += UPKEEP_NANOS;
                if (sinceJanitor >= JANITOR_NANOS) {
                    sinceJanitor = 0;
                    sessions.expire((long) (settings.pd().tokenLoadSessionTtlSeconds() * 1e9), now);
                    tokens.sweep((long) (settings.pd().tokenLoadTtlSeconds() * 1e9), now, warning -> forcedReleases++);
                }
                if (active.getAsBoolean()) {
                    queue.after(UPKEEP_NANOS, this);
                }
            }
        });
    }

    public RequestLedger ledger() {
        return ledger;
    }

    public TokenLedger tokens() {
        return tokens;
    }

    public String strategy() {
        return strategy;
    }

    public String strategyHeader() {
        return strategyHeader;
    }

    public PdKnobs knobs() {
        return knobs;
    }

    public GatewaySettings settings() {
        return settings;
    }

    /** Token charges the janitor had to force-release (a leak, or a request longer than the TTL). */
    public long forcedReleases() {
        return forcedReleases;
    }

    /** Environment and profile values the gateway ignored, as the server would log them. */
    public List<String> warnings() {
        return List.copyOf(warnings);
    }
}
