package io.pdgateway.routingsim.run;

import io.pdgateway.core.cache.PodCacheEvents;
import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.routingsim.cluster.ClusterShape;
import io.pdgateway.routingsim.cluster.SimCluster;
import io.pdgateway.routingsim.engine.KvEventFeed;
import io.pdgateway.routingsim.engine.SimEngine;
import io.pdgateway.routingsim.event.Event;
import io.pdgateway.routingsim.event.EventQueue;
import io.pdgateway.routingsim.gateway.SimGateway;
import io.pdgateway.routingsim.policy.PolicySetup;
import io.pdgateway.routingsim.policy.PolicySpec;
import io.pdgateway.core.routing.RouteDecider;
import io.pdgateway.routingsim.workload.SimRequest;
import io.pdgateway.routingsim.workload.Workload;
import io.pdgateway.workload.Slo;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One policy over the whole workload on a fresh cluster and a fresh gateway, single-threaded on its own virtual
 * clock: arrivals are fed one after another, everything else happens in the engines' and the gateway's own events.
 * The same shape, workload and seed give the same result, whatever else runs beside it.
 */
public final class PolicyRun {
    private final ClusterShape shape;
    private final Workload workload;
    private final PolicySpec spec;
    private final long seed;
    private final Slo slo;

    public PolicyRun(ClusterShape shape, Workload workload, PolicySpec spec, long seed, Slo slo) {
        this.shape = shape;
        this.workload = workload;
        this.spec = spec;
        this.seed = seed;
        this.slo = slo;
    }

    /** The gateway environment of this run: the cluster's, then the policy's on top. */
    public static GatewaySettings settings(ClusterShape shape, PolicySpec spec) {
        Map<String, String> env = new HashMap<>();
        // The gateway models the engines' caches in the engines' own blocks (as a user sets it for their engines).
        env.put(SpecEnv.PREFIX_CACHE_BLOCK_TOKENS, Integer.toString(shape.timing().blockSizeTokens()));
        env.putAll(shape.gatewayEnv());
        env.putAll(spec.environment());
        return GatewaySettings.fromEnv(env);
    }

    public RunResult run() {
        long wallStart = System.nanoTime();
        EventQueue queue = new EventQueue();
        GatewaySettings settings = settings(shape, spec);
        SimCluster cluster = SimCluster.build(shape, queue, settings.scrape().refreshIntervalMs() * 1_000_000L);
        List<SimGateway> gateways = new ArrayList<>();
        for (int r = 0; r < shape.gatewayReplicas(); r++) {
            // Each replica its own decider (the floor's turns are a replica's own) and its own session.
            RouteDecider policy = spec.factory().create(new PolicySetup(settings, cluster, workload, slo));
            gateways.add(new SimGateway(settings, spec.strategyHeader(), policy, cluster, queue,
                    shape.timing().blockSizeTokens(), seed + r));
        }
        if (shape.kvEvents()) {
            List<PodCacheEvents> views = new ArrayList<>();
            for (SimGateway gateway : gateways) {
                gateway.followKvEvents();
                views.add(gateway.kvEvents());
            }
            for (SimEngine engine : cluster.engines()) {
                engine.publishKvEvents(new KvEventFeed(engine.pod().id(), queue, shape.kvEventDelayNanos(), views));
            }
        }
        List<SimRequest> requests = workload.requests();
        RequestRecord[] records = new RequestRecord[requests.size()];
        int[] finished = {0};
        if (!requests.isEmpty()) {
            queue.schedule(requests.get(0).arrivalNanos(), new Event() {
                private int next;

                @Override
                public void fire(long now) {
                    SimRequest request = requests.get(next++);
                    SimGateway gateway = gateways.get(replicaOf(request.index(), gateways.size()));
                    new RequestJourney(request, gateway.route(request), cluster, queue, record -> {
                        if (records[record.index()] != null) {
                            throw new IllegalStateException("request " + record.index() + " recorded twice");
                        }
                        records[record.index()] = record;
                        finished[0]++;
                    }).start();
                    if (next < requests.size()) {
                        queue.schedule(requests.get(next).arrivalNanos(), this);
                    }
                }
            });
        }
        for (SimGateway gateway : gateways) {
            gateway.startUpkeep(() -> finished[0] < requests.size());
        }
        if (gateways.size() > 1) {
            ReplicaSync.start(gateways, queue, settings.redis().sharedLedger(), () -> finished[0] < requests.size());
        }
        queue.run();
        List<String> violations = invariants(records, gateways, cluster);
        List<PodSummary> pods = new ArrayList<>();
        for (SimEngine engine : cluster.engines()) {
            pods.add(PodSummary.of(engine));
        }
        List<RequestRecord> list = new ArrayList<>(Arrays.asList(records));
        list.removeIf(r -> r == null);
        List<String> warnings = new ArrayList<>(gateways.get(0).warnings());
        return new RunResult(spec, gateways.get(0).strategy().specName(), list, pods, queue.fired(),
                System.nanoTime() - wallStart, violations, warnings);
    }

    /**
     * Which replica a request reaches: a load balancer in front of the replicas spreads connections without looking at
     * them, so turns of one conversation may land on different replicas; a fixed hash keeps runs deterministic.
     */
    static int replicaOf(int requestIndex, int replicas) {
        long h = requestIndex * 0x9E3779B97F4A7C15L;
        return (int) Math.floorMod(h ^ (h >>> 31), replicas);
    }

    /** Caffeine's finished(): every request ended exactly once, the ledgers are back at zero, every engine is idle. */
    static List<String> invariants(RequestRecord[] records, SimGateway gateway, SimCluster cluster) {
        return invariants(records, List.of(gateway), cluster);
    }

    static List<String> invariants(RequestRecord[] records, List<SimGateway> gateways, SimCluster cluster) {
        List<String> violations = new ArrayList<>();
        int missing = 0;
        for (RequestRecord r : records) {
            if (r == null) {
                missing++;
            }
        }
        if (missing > 0) {
            violations.add(missing + " of " + records.length + " requests never finished");
        }
        for (SimGateway gateway : gateways) {
            if (gateway.ledger().outstanding() != 0) {
                violations.add("request ledger not at zero: " + gateway.ledger().outstanding() + " outstanding");
            }
            if (gateway.tokens().outstandingTokens() != 0) {
                violations.add("token ledger not at zero: " + gateway.tokens().outstandingTokens()
                        + " tokens outstanding");
            }
            if (gateway.session().prefillModels().inFlight() != 0) {
                violations.add("prefill queue model not empty: " + gateway.session().prefillModels().inFlight()
                        + " legs in flight");
            }
            if (gateway.forcedReleases() != 0) {
                violations.add(gateway.forcedReleases() + " token charges outlived AIBRIX_TOKEN_LOAD_TTL_SECONDS");
            }
        }
        for (SimEngine engine : cluster.engines()) {
            if (!engine.idle()) {
                violations.add("engine not idle at the end: " + engine.describeState());
            }
        }
        return violations;
    }
}
