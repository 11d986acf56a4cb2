package io.pdgateway.server.kvevents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pdgateway.core.cache.BlockHasher;
import io.pdgateway.sim.kvevents.KvEventPublisher;
import io.pdgateway.sim.kvevents.KvEventsConfig;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The subscriber over real ZeroMQ sockets on loopback, against engine-sim's publisher: events reach the view re-keyed;
 * a gap is replayed; a loss beyond the replay buffer clears the view; an idle stream stays live through probes; a dead
 * stream turns stale within the limit and recovers (with its view cleared) when the engine comes back; a pod taken out
 * of the set is stopped and its series removed; a pod without a replay socket clears its view at a gap. Every wait is
 * bounded.
 */
class KvEventSubscriptionsTest {
    private static final String POD = "default/vllm-0";
    private static final String MODEL = "llama";
    private static final Duration STALE = Duration.ofMillis(800);
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final KvEventsSettings SETTINGS = new KvEventsSettings(STALE, Duration.ofMillis(150),
            Duration.ofMillis(400), Duration.ofMillis(50), Duration.ofMillis(400), 10_000, 1_000, List.of());

    /** Engine block i holds tokens [16i, 16i + 16) of this sequence; its engine hash is 1000 + i. */
    private static final int[] TOKENS = IntStream.range(0, 16 * 32).map(i -> 7 * i + 3).toArray();
    private static final long[] GATEWAY = BlockHasher.chain(BlockHasher.seed(MODEL), TOKENS, TOKENS.length, 16);
    /** The handshake's sentinel: an engine block of tokens no test stores, and its gateway hash. */
    private static final long SENTINEL = 424_243;
    private static final int[] SENTINEL_TOKENS = IntStream.range(0, 16).map(i -> 900_000 + i).toArray();
    private static final long SENTINEL_GATEWAY = BlockHasher.chain(BlockHasher.seed(MODEL), SENTINEL_TOKENS, 16, 16)[0];

    private final RecordingCacheView view = new RecordingCacheView();
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final KvEventMetrics metrics = new KvEventMetrics(registry);
    private KvEventSubscriptions subscriptions;
    private KvEventPublisher publisher;

    @AfterEach
    void tearDown() {
        if (subscriptions != null) {
            subscriptions.close();
        }
        if (publisher != null) {
            publisher.close();
        }
    }

    @Test
    void storedAndRemoved_reachTheViewRekeyed_andThePodIsLive() {
        publisher = publisher("tcp://127.0.0.1:*", "tcp://127.0.0.1:*", 100);
        follow(true);
        awaitSubscribed();

        store(0, 4);
        await().atMost(WAIT).until(() -> view.blocks(POD).size() == 4);
        publisher.removed(new long[] {1003});
        publisher.flush();

        await().atMost(WAIT).until(() -> view.blocks(POD).equals(gateway(0, 3)));
        assertThat(view.isLive(POD)).isTrue();
        assertThat(counter(KvEventMetrics.APPLIED)).isEqualTo(2);
        assertThat(counter(KvEventMetrics.RECEIVED)).isEqualTo(2);
    }

    @Test
    void aGap_isReplayed_andTheViewIsComplete() {
        publisher = publisher("tcp://127.0.0.1:*", "tcp://127.0.0.1:*", 100);
        follow(true);
        awaitSubscribed();
        store(0, 1);
        await().atMost(WAIT).until(() -> view.blocks(POD).size() == 1);

        publisher.dropNext(2); // batches 1 and 2 reach only the replay buffer
        store(1, 2);
        store(2, 3);
        store(3, 4);

        await().atMost(WAIT).until(() -> view.blocks(POD).equals(gateway(0, 4)));
        assertThat(registry.find(KvEventMetrics.REPLAY_REQUESTS).tag("reason", KvEventMetrics.REPLAY_GAP).counter())
                .isNotNull();
        assertThat(view.count("cleared")).isZero();
    }

    @Test
    void lossBeyondTheReplayBuffer_clearsTheView_andRestartsItFromTheNextBatch() {
        publisher = publisher("tcp://127.0.0.1:*", "tcp://127.0.0.1:*", 1);
        follow(true);
        awaitSubscribed();
        store(0, 2);
        await().atMost(WAIT).until(() -> view.blocks(POD).size() == 2);

        publisher.dropNext(3); // three batches lost; the one-batch replay buffer keeps only the next one
        publisher.removed(new long[] {1001}); // lost: the view must not keep block 1 because of it
        publisher.flush();
        publisher.removed(new long[] {1000});
        publisher.flush();
        publisher.removed(new long[] {424_242});
        publisher.flush();
        store(2, 3); // its parent 1001 still resolves: mappings survive the reset

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(view.count("cleared")).as("views cleared").isEqualTo(1);
            assertThat(view.blocks(POD)).as("blocks after the reset").isEqualTo(gateway(2, 3));
        });
        assertThat(counter(KvEventMetrics.VIEW_RESETS)).isEqualTo(1);
    }

    @Test
    void idleStream_staysLiveThroughProbes() {
        publisher = publisher("tcp://127.0.0.1:*", "tcp://127.0.0.1:*", 100);
        follow(true);
        awaitSubscribed();
        store(0, 1);
        await().atMost(WAIT).until(() -> view.isLive(POD));

        await().during(STALE.multipliedBy(2)).atMost(WAIT).until(() -> view.isLive(POD));

        assertThat(registry.find(KvEventMetrics.REPLAY_REQUESTS).tag("reason", KvEventMetrics.REPLAY_PROBE)
                .counter().count()).isPositive();
        assertThat(subscriptions.stalePods()).isZero();
    }

    @Test
    void deadStream_turnsStaleWithinTheLimit_andRecoversClearedWhenTheEngineRestarts() {
        publisher = publisher("tcp://127.0.0.1:*", "tcp://127.0.0.1:*", 100);
        follow(true);
        awaitSubscribed();
        store(0, 2);
        await().atMost(WAIT).until(() -> view.isLive(POD) && view.blocks(POD).size() == 2);
        String endpoint = publisher.endpoint();
        String replay = publisher.replayEndpoint();

        long stopped = System.nanoTime();
        publisher.close();
        await().atMost(WAIT).until(() -> !view.isLive(POD));
        Duration took = Duration.ofNanos(System.nanoTime() - stopped);
        assertThat(took).isBetween(STALE.minusMillis(100), STALE.plus(SETTINGS.probeAfter()).plusMillis(500));
        // The gauge is counted after every stream's tick in the same poller round: it may trail the view briefly.
        await().atMost(WAIT).until(() -> subscriptions.stalePods() == 1);
        assertThat(registry.get(KvEventMetrics.STALE_PODS).gauge().value()).isEqualTo(1.0);

        publisher = publisher(endpoint, replay, 100); // the engine restarts: sequence from 0, empty cache
        awaitSubscribed();
        store(0, 1);

        await().atMost(WAIT).until(() -> view.isLive(POD) && view.blocks(POD).equals(gateway(0, 1)));
        assertThat(view.count("cleared")).isEqualTo(1);
        await().atMost(WAIT).until(() -> subscriptions.stalePods() == 0);
    }

    @Test
    void withoutAReplaySocket_aGapClearsTheView() {
        publisher = publisher("tcp://127.0.0.1:*", null, 100);
        follow(false);
        awaitSubscribed();
        store(0, 1);
        await().atMost(WAIT).until(() -> view.blocks(POD).size() == 1);

        publisher.dropNext(1);
        publisher.removed(new long[] {1000}); // lost
        publisher.flush();
        store(1, 2);

        await().atMost(WAIT).until(() -> view.count("cleared") == 1 && view.blocks(POD).equals(gateway(1, 2)));
        assertThat(counter(KvEventMetrics.REPLAY_REQUESTS)).isZero();
    }

    @Test
    void podLeavingTheSet_isStopped_reportedNotLive_andItsSeriesRemoved() {
        publisher = publisher("tcp://127.0.0.1:*", "tcp://127.0.0.1:*", 100);
        follow(true);
        awaitSubscribed();
        store(0, 1);
        await().atMost(WAIT).until(() -> view.isLive(POD));
        assertThat(registry.scrape()).contains("# HELP " + KvEventMetrics.RECEIVED + "_total",
                "# HELP " + KvEventMetrics.STALE_PODS, "pod_name=\"" + POD + "\"");

        subscriptions.update(List.of());

        await().atMost(WAIT).until(() -> !view.isLive(POD) && subscriptions.subscribedPods() == 0);
        assertThat(registry.scrape()).doesNotContain("pod_name=\"" + POD + "\"");
    }

    private KvEventPublisher publisher(String endpoint, String replay, int bufferSteps) {
        KvEventsConfig config = new KvEventsConfig(true, KvEventsConfig.PUBLISHER_ZMQ, endpoint, replay, bufferSteps,
                KvEventsConfig.DEFAULT_HWM, 1_000, "kv-events");
        return new KvEventPublisher(config, KvEventPublisher.Layout.MAP, InstantSource.system());
    }

    private void follow(boolean withReplay) {
        subscriptions = new KvEventSubscriptions(SETTINGS, view, metrics, System::nanoTime);
        KvEventsEndpoint endpoint = new KvEventsEndpoint(publisher.endpoint(),
                withReplay ? publisher.replayEndpoint() : null, "kv-events");
        subscriptions.update(List.of(new KvEventsTarget(POD, MODEL, endpoint)));
    }

    /**
     * PUB/SUB drops what is sent before the subscription reaches the publisher: publish a batch without effect on the
     * view (the removal of a block never stored) until the subscriber has seen one, so the test's own batches are not
     * lost to the handshake. Probes sent before that one may still be on their way, so a sentinel block is stored and
     * removed behind them: the stream applies batches in order, so once the view has seen the sentinel come and go and
     * every event received is counted applied or dropped, nothing of the handshake is left to count. Then reset the
     * pod's counters.
     */
    private void awaitSubscribed() {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            if (counter(KvEventMetrics.RECEIVED) > 0) {
                return true;
            }
            publisher.removed(new long[] {424_242});
            publisher.flush();
            return false;
        });
        publisher.stored(new long[] {SENTINEL}, null, SENTINEL_TOKENS, 16);
        publisher.flush();
        await().atMost(WAIT).until(() -> view.blocks(POD).contains(SENTINEL_GATEWAY));
        publisher.removed(new long[] {SENTINEL});
        publisher.flush();
        await().atMost(WAIT).until(() -> !view.blocks(POD).contains(SENTINEL_GATEWAY)
                && counter(KvEventMetrics.RECEIVED)
                == counter(KvEventMetrics.APPLIED) + counter(KvEventMetrics.DROPPED));
        await().atMost(WAIT).until(() -> view.isLive(POD));
        registry.getMeters().stream().filter(m -> m.getId().getName().startsWith("pd_gateway_kv_events_")
                && m.getId().getTag(KvEventMetrics.POD_TAG) != null).forEach(registry::remove);
        metrics.forget(POD);
    }

    /** Publishes engine blocks [from, to) as one BlockStored whose parent is block from - 1. */
    private void store(int from, int to) {
        long[] hashes = LongStream.range(1000 + from, 1000 + to).toArray();
        publisher.stored(hashes, from == 0 ? null : 1000L + from - 1, Arrays.copyOfRange(TOKENS, 16 * from, 16 * to),
                16);
        publisher.flush();
    }

    private static Set<Long> gateway(int from, int to) {
        return Arrays.stream(GATEWAY, from, to).boxed().collect(Collectors.toSet());
    }

    private double counter(String name) {
        return registry.find(name).counters().stream().mapToDouble(c -> c.count()).sum();
    }
}
