package io.pdgateway.bench.parity;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.session.Admission;
import io.pdgateway.core.session.PromptFeatures;
import io.pdgateway.core.session.Routed;
import io.pdgateway.core.session.RoutingSession;
import io.pdgateway.core.session.SessionClock;
import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.routingsim.cluster.ClusterShape;
import io.pdgateway.routingsim.cluster.ClusterShapeReader;
import io.pdgateway.routingsim.cluster.SimCluster;
import io.pdgateway.routingsim.engine.KvEventFeed;
import io.pdgateway.routingsim.event.Event;
import io.pdgateway.routingsim.event.EventQueue;
import io.pdgateway.routingsim.gateway.SimGateway;
import io.pdgateway.routingsim.policy.PolicyRegistry;
import io.pdgateway.routingsim.policy.PolicySetup;
import io.pdgateway.routingsim.policy.PolicySpec;
import io.pdgateway.routingsim.run.PolicyRun;
import io.pdgateway.routingsim.workload.SimRequest;
import io.pdgateway.server.discovery.PodSource;
import io.pdgateway.server.routing.RoutingService;
import io.pdgateway.server.scrape.EngineMetricsScraper;
import io.pdgateway.server.scrape.MetricsStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The routing simulator and the server make the same decisions. One script of inputs (arrivals with their prompt
 * lengths, block hashes and session keys; scraped metrics every 50 ms; prefill answers, releases and retries; the
 * once-a-second upkeep) drives the simulator's {@link SimGateway}, wired as {@code routing-sim} wires it, and the
 * server's {@link RoutingService} over a {@link MetricsStore}, wired as {@code pd-gateway serve} wires it, on one
 * virtual clock. Every decision must name the same pods by the same cascade step, for each policy and with bucket
 * serving on. How the server turns a request body into prompt features is {@code PromptMeasurer}'s own test; here both
 * sides get the features a simulated request carries.
 */
class SimServerParityTest {
    private static final Path SMALL_CLUSTER = Path.of("..", "routing-sim", "clusters", "small.yaml");
    private static final long SCRAPE_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long RUN_NANOS = TimeUnit.SECONDS.toNanos(40);
    private static final int SHARED_PREFIXES = 12;
    private static final int SESSION_KEYS = 40;

    static Stream<Arguments> configurations() {
        return Stream.of(
                Arguments.of("pd", Map.of()),
                Arguments.of("pd:prefix_cache:load_balancing", Map.of()),
                Arguments.of("pd:token_load:token_load", Map.of()),
                Arguments.of("pd:hybrid_cache_load:token_load", Map.of()),
                Arguments.of("pd:predicted_ttft:token_load", Map.of()),
                Arguments.of("pd:least_request:least_request", Map.of(SpecEnv.BUCKET_SERVE, "true")));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("configurations")
    void sameScript_sameDecisions(String policy, Map<String, String> extraEnv) throws Exception {
        run(policy, extraEnv, false);
    }

    /**
     * With the pods' cache views fed by KV-cache events (the engines report what they store 30 ms after each prefill
     * and evict the tails of some prompts when they end), through routing-sim's event feed into both sides' views.
     */
    @ParameterizedTest(name = "{0} event-fed")
    @ValueSource(strings = {"pd:prefix_cache:load_balancing", "pd:hybrid_cache_load:token_load",
        "pd:predicted_ttft:token_load"})
    void eventFedViews_sameScript_sameDecisions(String policy) throws Exception {
        run(policy, Map.of(), true);
    }

    private void run(String policy, Map<String, String> extraEnv, boolean kvEvents) throws Exception {
        ClusterShape shape = ClusterShapeReader.read(SMALL_CLUSTER).withGatewayEnv(extraEnv);
        PolicySpec spec = PolicyRegistry.resolve(policy);
        EventQueue queue = new EventQueue();
        Map<String, PodMetrics> scraped = new HashMap<>();

        // The simulator's side, as PolicyRun builds it, but reading the scripted metrics instead of engines.
        GatewaySettings simSettings = PolicyRun.settings(shape, spec);
        SimCluster cluster = SimCluster.build(shape, queue, SCRAPE_NANOS);
        SimGateway sim = new SimGateway(simSettings, spec.strategyHeader(),
                spec.factory().create(new PolicySetup(simSettings, cluster, null, null)), cluster.model(),
                pod -> scraped.getOrDefault(pod.id(), PodMetrics.ABSENT), queue, shape.timing().blockSizeTokens(), 7);

        // The server's side, as GatewayServer builds it: settings from the environment, a metrics store, discovery.
        Map<String, String> env = new HashMap<>(shape.gatewayEnv());
        env.put(SpecEnv.PREFIX_CACHE_BLOCK_TOKENS, Integer.toString(shape.timing().blockSizeTokens()));
        env.putAll(spec.environment());
        GatewaySettings serverSettings = GatewaySettings.fromEnv(env);
        MetricsStore store = new MetricsStore(EngineMetricsScraper.STALE_AFTER_NANOS, queue::now);
        ClusterSnapshot snapshot = ClusterSnapshot.of(cluster.model().pods());
        RoutingService server = new RoutingService(fixed(snapshot), serverSettings.routing(), store, 7,
                virtualClock(queue));

        Script script = new Script(queue, sim, server, cluster.model().model(), spec.strategyHeader());
        if (kvEvents) {
            // Both follow every pod's events from the start, as the server's subscriber does once it caught up.
            sim.followKvEvents();
            server.session().caches().retainOnly(snapshot);
            for (Pod pod : cluster.model().pods()) {
                server.session().caches().live(pod.id(), true);
                script.feeds.put(pod.id(), new KvEventFeed(pod.id(), queue, TimeUnit.MILLISECONDS.toNanos(30),
                        List.of(sim.kvEvents(), server.session().caches())));
            }
        }
        script.scrapeEvery(SCRAPE_NANOS, cluster.model().pods(), scraped, store);
        script.tickEverySecond();
        script.arrivals(new SplittableRandom(policy.hashCode() ^ extraEnv.hashCode()));
        queue.run();

        assertThat(script.compared).as("decisions compared").isGreaterThan(1_000);
        assertThat(script.pdDecisions).as("of which prefill/decode pairs").isGreaterThan(500);
        assertThat(script.retries).as("retries compared").isGreaterThan(10);
        assertThat(script.mismatches).as("decisions that differ (first ten)").isEmpty();
    }

    /** Drives both gateways with the same events and compares what they decide. */
    private static final class Script {
        final EventQueue queue;
        final SimGateway sim;
        final RoutingSession server;
        final String model;
        final String strategyHeader;
        final List<String> mismatches = new ArrayList<>();
        /** Each pod's KV-event feed into both sides' cache views, when the views are event-fed. */
        final Map<String, KvEventFeed> feeds = new HashMap<>();
        int compared;
        int pdDecisions;
        int retries;

        Script(EventQueue queue, SimGateway sim, RoutingService server, String model, String strategyHeader) {
            this.queue = queue;
            this.sim = sim;
            this.server = server.session();
            this.model = model;
            this.strategyHeader = strategyHeader;
        }

        /** Every pod scraped in one round, as the scraper does; the values wander so the policies have work. */
        void scrapeEvery(long intervalNanos, List<Pod> pods, Map<String, PodMetrics> scraped, MetricsStore store) {
            SplittableRandom random = new SplittableRandom(11);
            queue.after(0, new Event() {
                @Override
                public void fire(long now) {
                    for (Pod pod : pods) {
                        PodMetrics metrics = new PodMetrics(random.nextInt(12), random.nextInt(4), random.nextInt(4),
                                random.nextDouble(), random.nextDouble(200, 6_000), random.nextDouble(20, 800),
                                random.nextInt(5) == 0 ? Double.NaN : 434_000, now);
                        scraped.put(pod.id(), metrics);
                        store.put(pod.id(), metrics);
                    }
                    if (now < RUN_NANOS) {
                        queue.after(intervalNanos, this);
                    }
                }
            });
        }

        void tickEverySecond() {
            queue.after(RoutingSession.TICK_NANOS, new Event() {
                @Override
                public void fire(long now) {
                    RoutingSession.Upkeep simUpkeep = sim.session().tick();
                    RoutingSession.Upkeep serverUpkeep = server.tick();
                    if (simUpkeep.forcedReleases() != serverUpkeep.forcedReleases()
                            || !String.valueOf(simUpkeep.newPlan()).equals(String.valueOf(serverUpkeep.newPlan()))) {
                        mismatch("upkeep at " + now + ": simulator " + simUpkeep + ", server " + serverUpkeep);
                    }
                    if (now < RUN_NANOS + TimeUnit.SECONDS.toNanos(10)) {
                        queue.after(RoutingSession.TICK_NANOS, this);
                    }
                }
            });
        }

        /**
         * About 60 requests a second: prompts of 50 to 40,000 tokens (both buckets and the standard pod's overflow),
         * most opening with one of a dozen shared prefixes, some in client sessions; each answers its prefill and
         * ends after random delays, and one in twenty fails its prefill and is retried elsewhere.
         */
        void arrivals(SplittableRandom random) {
            long at = 0;
            for (int index = 0; at < RUN_NANOS; index++) {
                at += (long) (-Math.log(1 - random.nextDouble()) * 1e9 / 60);
                SimRequest request = request(index, at, random);
                long prefillNanos = TimeUnit.MILLISECONDS.toNanos(random.nextLong(5, 800));
                long decodeNanos = TimeUnit.MILLISECONDS.toNanos(random.nextLong(50, 6_000));
                boolean prefillFails = random.nextInt(20) == 0;
                queue.schedule(at, now -> arrive(request, prefillNanos, decodeNanos, prefillFails));
            }
        }

        private SimRequest request(int index, long at, SplittableRandom random) {
            int promptTokens = (int) Math.min(40_000, Math.max(50, Math.exp(random.nextDouble(4, 10.6))));
            int blocks = promptTokens / 16;
            long[] hashes = new long[blocks];
            int prefix = random.nextInt(SHARED_PREFIXES + 3); // some prompts share nothing
            int shared = prefix < SHARED_PREFIXES ? Math.min(blocks, 20 + prefix * 30) : 0;
            long chain = prefix < SHARED_PREFIXES ? prefix + 1 : 1_000_000L + index;
            for (int i = 0; i < blocks; i++) {
                if (i == shared) {
                    chain = chain * 31 + 1_000_000L + index; // the prompt's own blocks from here on
                }
                chain = chain * 0x9E3779B97F4A7C15L + i;
                hashes[i] = chain;
            }
            String sessionKey = random.nextInt(4) == 0 ? "s" + random.nextInt(SESSION_KEYS) : null;
            return new SimRequest(index, at, promptTokens, 1 + random.nextInt(500), hashes, sessionKey);
        }

        private void arrive(SimRequest request, long prefillNanos, long decodeNanos, boolean prefillFails) {
            Routed simRouted = sim.route(request);
            Admission admission = server.admit(model, strategyHeader, null);
            PromptFeatures features = new PromptFeatures(request.promptTokens(),
                    admission.needs().blockHashes() ? request.blockHashes() : null,
                    request.promptTokens() + SimGateway.BODY_ENVELOPE_TOKENS);
            Routed serverRouted = server.route(admission, features, Integer.toString(request.index()),
                    request.sessionKey());
            compare("request " + request.index(), simRouted, serverRouted);
            if (!simRouted.decision().verdict().routed()) {
                return;
            }
            if (prefillFails && simRouted.decision().isPd()) {
                queue.after(prefillNanos, now -> {
                    Routed simRetry = sim.session().reroute(simRouted);
                    Routed serverRetry = server.reroute(serverRouted);
                    retries++;
                    compare("retry of request " + request.index(), simRetry, serverRetry);
                    queue.after(decodeNanos, later -> {
                        simRetry.lease().release();
                        serverRetry.lease().release();
                    });
                });
                return;
            }
            KvEventFeed feed = feeds.get((simRouted.decision().isPd() ? simRouted.decision().prefill()
                    : simRouted.decision().target()).id());
            queue.after(prefillNanos, now -> {
                simRouted.lease().prefillAnswered();
                serverRouted.lease().prefillAnswered();
                if (feed != null) {
                    for (long hash : request.blockHashes()) {
                        feed.stored(hash);
                    }
                    feed.publish();
                }
            });
            queue.after(prefillNanos + decodeNanos, now -> {
                simRouted.lease().release();
                serverRouted.lease().release();
                long[] hashes = request.blockHashes();
                if (feed != null && request.index() % 3 == 0 && hashes.length > 1) {
                    for (int i = hashes.length / 2; i < hashes.length; i++) {
                        feed.evicted(hashes[i]);
                    }
                    feed.publish();
                }
            });
        }

        private void compare(String what, Routed sim, Routed server) {
            compared++;
            String simSaid = describe(sim.decision());
            String serverSaid = describe(server.decision());
            if (sim.decision().isPd()) {
                pdDecisions++;
            }
            if (!simSaid.equals(serverSaid)) {
                mismatch(what + " at " + queue.now() + ": simulator " + simSaid + ", server " + serverSaid);
            }
        }

        private void mismatch(String line) {
            if (mismatches.size() < 10) {
                mismatches.add(line);
            }
        }

        private static String describe(RouteDecision d) {
            return d.verdict() + " " + d.kind() + " prefill=" + (d.prefill() == null ? "-" : d.prefill().id())
                    + " target=" + (d.target() == null ? "-" : d.target().id()) + " step=" + d.step();
        }
    }

    private static SessionClock virtualClock(EventQueue queue) {
        return new SessionClock() {
            @Override
            public long nanoTime() {
                return queue.now();
            }

            @Override
            public long epochMillis() {
                return queue.now() / 1_000_000;
            }
        };
    }

    private static PodSource fixed(ClusterSnapshot snapshot) {
        return new PodSource() {
            @Override
            public ClusterSnapshot current() {
                return snapshot;
            }

            @Override
            public boolean ready() {
                return true;
            }

            @Override
            public void close() {}
        };
    }
}
