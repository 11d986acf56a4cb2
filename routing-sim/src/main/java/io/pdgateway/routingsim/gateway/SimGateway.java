package io.pdgateway.routingsim.gateway;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.ledger.RequestLedger;
import io.pdgateway.core.ledger.TokenLedger;
import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.prefix.PrefixIndex;
import io.pdgateway.core.routing.RouteDecider;
import io.pdgateway.core.routing.Strategy;
import io.pdgateway.core.session.Admission;
import io.pdgateway.core.session.PromptFeatures;
import io.pdgateway.core.session.Routed;
import io.pdgateway.core.session.RoutingSession;
import io.pdgateway.core.session.SessionClock;
import io.pdgateway.routingsim.cluster.SimCluster;
import io.pdgateway.routingsim.event.Event;
import io.pdgateway.routingsim.event.EventQueue;
import io.pdgateway.routingsim.workload.SimRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The gateway of one run on the virtual clock: the production {@link RoutingSession}, the same object the server
 * routes through, driven by the event queue's clock. Admission, selection, charges, releases, prefix warming, bucket
 * serving and the one-second upkeep (drain rates, janitor, replanning) are the server's own code; what this class adds
 * is only how a simulated request becomes the session's input.
 */
public final class SimGateway {
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
    private final RoutingSession session;
    private final Admission admission;
    private final EventQueue queue;
    private final int indexStride;
    private final List<String> warnings = new ArrayList<>();
    private long forcedReleases;

    /**
     * @param decider what decides: the production router, or a floor or ceiling the run compares with it
     */
    public SimGateway(GatewaySettings settings, String strategyHeader, RouteDecider decider, SimCluster cluster,
            EventQueue queue, int blockSizeTokens, long seed) {
        this.settings = settings;
        this.queue = queue;
        this.indexStride = Math.max(1, INDEX_BLOCK_TOKENS / blockSizeTokens);
        int indexBlocks = Math.max(1, PrefixIndex.DEFAULT_CAPACITY_BLOCKS * PRODUCTION_TOKENS_PER_INDEX_BLOCK
                / (blockSizeTokens * indexStride));
        this.warnings.addAll(settings.warnings());
        ClusterSnapshot snapshot = ClusterSnapshot.of(cluster.model().pods());
        SessionClock clock = new SessionClock() {
            @Override
            public long nanoTime() {
                return queue.now();
            }

            @Override
            public long epochMillis() {
                return queue.now() / 1_000_000;
            }
        };
        this.session = new RoutingSession(settings.routing(), () -> snapshot, pod -> cluster.metrics(pod, queue.now()),
                decider, new PrefixIndex(indexBlocks, PrefixIndex.DEFAULT_TTL_NANOS), clock, seed, warnings::add);
        // One model, no config-profile header: the server would admit every request of the run alike.
        this.admission = session.admit(cluster.model().model(), strategyHeader, null);
        if (!admission.admitted()) {
            throw new IllegalArgumentException(admission.refusal().message());
        }
    }

    /** Routes one request now and charges what the decision holds. */
    public Routed route(SimRequest request) {
        long[] hashes = admission.needs().blockHashes() ? indexHashes(request.blockHashes()) : null;
        PromptFeatures features = new PromptFeatures(request.promptTokens(), hashes,
                request.promptTokens() + BODY_ENVELOPE_TOKENS);
        return session.route(admission, features, Integer.toString(request.index()), request.sessionKey());
    }

    /** Every {@code indexStride}-th chained block hash: the hash of the first 64·k tokens. */
    private long[] indexHashes(long[] blockHashes) {
        long[] out = new long[blockHashes.length / indexStride];
        for (int i = 0; i < out.length; i++) {
            out[i] = blockHashes[(i + 1) * indexStride - 1];
        }
        return out;
    }

    /** Ticks the session's upkeep once a virtual second while {@code active} says there is work left. */
    public void startUpkeep(BooleanSupplier active) {
        queue.after(RoutingSession.TICK_NANOS, new Event() {
            @Override
            public void fire(long now) {
                forcedReleases += session.tick().forcedReleases();
                if (active.getAsBoolean()) {
                    queue.after(RoutingSession.TICK_NANOS, this);
                }
            }
        });
    }

    public RoutingSession session() {
        return session;
    }

    public RequestLedger ledger() {
        return session.requests();
    }

    public TokenLedger tokens() {
        return session.tokens();
    }

    public Strategy strategy() {
        return admission.strategy();
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
