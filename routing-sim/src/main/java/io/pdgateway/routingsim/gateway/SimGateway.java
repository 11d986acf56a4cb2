package io.pdgateway.routingsim.gateway;

import io.pdgateway.core.cache.PodCacheEvents;
import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.ledger.RequestLedger;
import io.pdgateway.core.ledger.TokenLedger;
import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
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
import java.util.function.Function;

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
    public static final int BODY_ENVELOPE_TOKENS = 22;

    private final GatewaySettings settings;
    private final RoutingSession session;
    private final Admission admission;
    private final EventQueue queue;
    private final ClusterSnapshot snapshot;
    private final List<String> warnings = new ArrayList<>();
    private long forcedReleases;

    /**
     * @param decider what decides: the production router, or a floor or ceiling the run compares with it
     */
    public SimGateway(GatewaySettings settings, String strategyHeader, RouteDecider decider, SimCluster cluster,
            EventQueue queue, int blockSizeTokens, long seed) {
        this(settings, strategyHeader, decider, cluster.model(), pod -> cluster.metrics(pod, queue.now()), queue,
                blockSizeTokens, seed);
    }

    /**
     * A gateway over the given pods whose metrics come from {@code metrics} (what the scraper last stored for a pod)
     * instead of simulated engines.
     */
    public SimGateway(GatewaySettings settings, String strategyHeader, RouteDecider decider, ModelPods pods,
            Function<Pod, PodMetrics> metrics, EventQueue queue, int blockSizeTokens, long seed) {
        this.settings = settings;
        this.queue = queue;
        this.warnings.addAll(settings.warnings());
        this.snapshot = ClusterSnapshot.of(pods.pods());
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
        this.session = new RoutingSession(settings.routing(), () -> snapshot, metrics, decider, clock, seed,
                warnings::add);
        if (settings.routing().prefixCacheBlockTokens() != blockSizeTokens) {
            throw new IllegalArgumentException("the prefix-cache model's blocks (" + settings.routing()
                    .prefixCacheBlockTokens() + " tokens) must be the engines' (" + blockSizeTokens + ")");
        }
        // One model, no config-profile header: the server would admit every request of the run alike.
        this.admission = session.admit(pods.model(), strategyHeader, null);
        if (!admission.admitted()) {
            throw new IllegalArgumentException(admission.refusal().message());
        }
    }

    /**
     * Routes one request now and charges what the decision holds. The prompt's block hashes are the engines' own KV
     * blocks (the workload's hash ids), which the server would compute from the prompt's tokens.
     */
    public Routed route(SimRequest request) {
        long[] hashes = admission.needs().blockHashes() ? request.blockHashes() : null;
        PromptFeatures features = new PromptFeatures(request.promptTokens(), hashes,
                request.promptTokens() + BODY_ENVELOPE_TOKENS);
        return session.route(admission, features, Integer.toString(request.index()), request.sessionKey());
    }

    /**
     * Follows the engines' KV-cache events from now on, every pod's stream live: the cache views then take what the
     * engines report (fed through {@link #kvEvents()}) over the gateway's own model, as the server's do for pods that
     * publish. The server starts following after its first upkeep and catches up from the engines' replay buffers;
     * here the views follow from the start, which is where that catching up ends.
     */
    public void followKvEvents() {
        session.caches().retainOnly(snapshot);
        for (ModelPods model : snapshot.models()) {
            for (Pod pod : model.pods()) {
                session.caches().live(pod.id(), true);
            }
        }
    }

    /** Where the engines' KV-cache events go: the session's cache views, as the server's subscriber feeds them. */
    public PodCacheEvents kvEvents() {
        return session.caches();
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
