package io.pdgateway.core.routing;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.ledger.LedgerRows;
import io.pdgateway.core.ledger.RemoteLoad;
import io.pdgateway.core.ledger.RequestLedger;
import io.pdgateway.core.ledger.TokenLedger;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A decision's load view reads the ledgers through the model's rows (arrays by pod slot) and must read exactly what
 * the ledgers' maps say, for every pod and counter, after whatever happened between two decisions: a pod's first
 * charge, releases, a snapshot with pods added, removed, reordered or re-created at another address (a lease charged
 * under the old snapshot released under the new one), pods dropped by discovery or the janitor, other replicas' load.
 */
class LedgerRowsTest {
    private static final long NOW = 100_000_000_000L;
    private final RequestLedger requests = new RequestLedger();
    private final TokenLedger tokens = new TokenLedger();
    private final LedgerRows rows = new LedgerRows();
    private RemoteLoad remote = RemoteLoad.NONE;

    private static List<Pod> pairs(int from, int to, String ip) {
        List<Pod> pods = new ArrayList<>();
        for (int i = from; i < to; i++) {
            pods.add(pod("p" + i).prefill("rs" + i).build());
            pods.add(withIp(pod("d" + i).decode("rs" + i).build(), ip));
        }
        return pods;
    }

    private static Pod withIp(Pod pod, String ip) {
        return new Pod(pod.namespace(), pod.name(), pod.model(), ip, pod.port(), pod.metricPort(), pod.engine(),
                pod.role(), pod.rolesetName(), pod.kvConnectorType(), pod.sglangBootstrapPort(), pod.config(),
                pod.labels());
    }

    private static Pod named(ModelPods model, String name) {
        return model.pods().stream().filter(p -> p.name().equals(name)).findFirst().orElseThrow();
    }

    private Lease charge(ModelPods model, String prefill, String decode, long promptTokens) {
        Pod p = named(model, prefill);
        Pod d = named(model, decode);
        return new Lease(requests.charge(RouteDecision.pair(p, d, "s", "t", Map.of())),
                tokens.charge(p, promptTokens + 10, d, promptTokens, 60_000_000_000L, NOW - 5_000_000_000L));
    }

    private record Lease(RequestLedger.Charge requests, TokenLedger.Charge tokens) {
        void releaseAll() {
            requests.releaseAll();
            tokens.releaseAll(NOW);
        }
    }

    /** Every pod of the model read through fresh rows, in list order and shuffled, equals the maps' answer. */
    private void assertRowsReadAsMaps(ModelPods model) {
        ClusterLoad maps = new ClusterLoad(requests, tokens, pod -> PodMetrics.ABSENT, remote, NOW, 7_000);
        ClusterLoad viaRows = new ClusterLoad(requests, tokens, pod -> PodMetrics.ABSENT, remote, NOW, 7_000)
                .reading(rows.refresh(model, requests, tokens, remote));
        List<Pod> shuffled = new ArrayList<>(model.pods());
        Collections.shuffle(shuffled, new Random(model.pods().size()));
        for (List<Pod> order : List.of(model.prefillPods(), model.decodePods(), shuffled)) {
            for (Pod pod : order) {
                assertThat(viaRows.inFlightPrefills(pod)).as(pod.id()).isEqualTo(maps.inFlightPrefills(pod));
                assertThat(viaRows.runningRequests(pod)).as(pod.id()).isEqualTo(maps.runningRequests(pod));
                assertThat(viaRows.pendingDecodes(pod)).as(pod.id()).isEqualTo(maps.pendingDecodes(pod));
                assertThat(viaRows.hasRunningMetric(pod)).as(pod.id()).isEqualTo(maps.hasRunningMetric(pod));
                int runningIfObserved = viaRows.runningIfObserved(pod);
                assertThat(runningIfObserved >= 0).as(pod.id()).isEqualTo(maps.hasRunningMetric(pod));
                assertThat(LoadView.observedRunning(runningIfObserved)).as(pod.id())
                        .isEqualTo(maps.runningRequests(pod));
                assertThat(maps.runningIfObserved(pod)).as(pod.id()).isEqualTo(runningIfObserved);
                assertThat(viaRows.activeTokens(pod)).as(pod.id()).isEqualTo(maps.activeTokens(pod));
                assertThat(viaRows.kvTokens(pod)).as(pod.id()).isEqualTo(maps.kvTokens(pod));
                assertThat(viaRows.decodeTokens(pod)).as(pod.id()).isEqualTo(maps.decodeTokens(pod));
                assertThat(viaRows.decodeAgeSeconds(pod)).as(pod.id()).isEqualTo(maps.decodeAgeSeconds(pod));
            }
        }
    }

    @Test
    void chargesAndReleases_betweenDecisions_readAsTheMaps() {
        ModelPods model = ModelPods.of("m", pairs(0, 6, "10.0.0.1"));
        assertRowsReadAsMaps(model); // nothing charged: no entries at all
        Lease first = charge(model, "p1", "d1", 100);
        assertRowsReadAsMaps(model); // a first charge adds entries after the rows were filled
        Lease second = charge(model, "p1", "d2", 300);
        first.requests().releasePrefill();
        first.tokens().releaseActive(NOW);
        assertRowsReadAsMaps(model);
        first.releaseAll();
        second.releaseAll();
        assertRowsReadAsMaps(model); // entries at zero still say "has a running count"
        assertThat(rows.refresh(model, requests, tokens, remote).slot(named(model, "d1"))).isGreaterThanOrEqualTo(0);
    }

    @Test
    void eachLedgersChangeAlone_reachesTheRows() {
        // The rows copy a slot's counters when either ledger's entry there changed: each change alone must do it.
        ModelPods model = ModelPods.of("m", pairs(0, 3, "10.0.0.1"));
        Lease lease = charge(model, "p1", "d1", 100);
        charge(model, "p2", "d2", 60);
        assertRowsReadAsMaps(model);
        lease.tokens().releaseActive(NOW);
        assertRowsReadAsMaps(model);
        lease.tokens().releaseAll(NOW);
        assertRowsReadAsMaps(model);
        lease.requests().releasePrefill();
        assertRowsReadAsMaps(model);
        lease.requests().releaseAll();
        assertRowsReadAsMaps(model);
        requests.charge(RouteDecision.pair(named(model, "p1"), named(model, "d1"), "s", "t", Map.of()));
        assertRowsReadAsMaps(model);
        tokens.charge(named(model, "p1"), 5, named(model, "d1"), 4, 0, NOW - 1);
        assertRowsReadAsMaps(model);
        tokens.sweep(NOW, warning -> { }); // a TTL of 0: the janitor force-releases that charge, the ledger alone
        assertRowsReadAsMaps(model);
    }

    @Test
    void releasesOnOtherThreads_betweenAndDuringRefreshes_theNextRefreshReadsTheMaps() throws Exception {
        ModelPods model = ModelPods.of("m", pairs(0, 8, "10.0.0.1"));
        charge(model, "p0", "d0", 1); // every pod gets its entries before the race, so no refill hides a lost change
        for (int i = 0; i < 8; i++) {
            charge(model, "p" + i, "d" + i, 1).releaseAll();
        }
        assertRowsReadAsMaps(model);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        AtomicBoolean done = new AtomicBoolean();
        List<Future<?>> writers = new ArrayList<>();
        for (int t = 0; t < 2; t++) {
            int thread = t;
            writers.add(pool.submit(() -> {
                for (int i = 0; i < 20_000; i++) {
                    int pair = (thread * 3 + i) % 8;
                    Lease lease = charge(model, "p" + pair, "d" + (i % 8), 10 + i % 5);
                    if (i % 4 != 0) { // a quarter stay charged
                        lease.releaseAll();
                    }
                }
                done.set(true);
            }));
        }
        int refreshes = 0;
        while (!done.get() && refreshes < 1_000_000) { // the decisions' side: refresh as the writers change entries
            rows.refresh(model, requests, tokens, remote);
            refreshes++;
        }
        for (Future<?> writer : writers) {
            writer.get(60, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertThat(refreshes).as("refreshes raced the writers").isPositive();
        assertRowsReadAsMaps(model);
        assertThat(requests.outstanding()).as("charges left held").isPositive();
    }

    @Test
    void aNewSnapshotOfAsManyPods_eachSlotAnotherPod_readsEachPodsOwnEntries() {
        // The rows reuse their arrays for a snapshot of the same size: every slot must be refilled, not only empty
        // ones.
        ModelPods before = ModelPods.of("m", pairs(0, 4, "10.0.0.1"));
        charge(before, "p1", "d1", 100);
        charge(before, "p2", "d3", 30);
        assertRowsReadAsMaps(before);
        ModelPods shifted = ModelPods.of("m", pairs(1, 5, "10.0.0.1")); // rs0 gone, rs4 new: the ledgers unchanged
        assertRowsReadAsMaps(shifted);
        charge(shifted, "p4", "d4", 7);
        assertRowsReadAsMaps(shifted);
    }

    @Test
    void newSnapshot_podsAddedRemovedReorderedRecreated_oldLeaseReleasesIntoTheRightPod() {
        ModelPods before = ModelPods.of("m", pairs(0, 6, "10.0.0.1"));
        Lease kept = charge(before, "p4", "d4", 200);
        Lease gone = charge(before, "p0", "d0", 50);
        Lease recreated = charge(before, "p5", "d5", 70);
        assertRowsReadAsMaps(before);

        // rs0 left; rs6 and rs7 came, sorting before most of the old pods; d5 is back at another address.
        List<Pod> next = new ArrayList<>(pairs(1, 5, "10.0.0.1"));
        next.addAll(pairs(6, 8, "10.0.0.1"));
        next.add(named(before, "p5"));
        next.add(withIp(named(before, "d5"), "10.0.0.9"));
        Collections.reverse(next);
        ModelPods after = ModelPods.of("m", next);
        Map<String, String> present = new java.util.HashMap<>();
        after.pods().forEach(p -> present.put(p.id(), p.address()));
        requests.retainOnly(present);
        tokens.retainOnly(present);
        assertRowsReadAsMaps(after);
        assertThat(new ClusterLoad(requests, tokens, pod -> PodMetrics.ABSENT, remote, NOW, 0)
                .reading(rows.refresh(after, requests, tokens, remote)).runningRequests(named(after, "d4")))
                .as("d4's request, charged under the old snapshot").isEqualTo(1);

        kept.releaseAll();
        gone.releaseAll();
        recreated.releaseAll();
        assertRowsReadAsMaps(after);
        charge(after, "p7", "d5", 30); // the re-created d5's first charge: a fresh entry
        assertRowsReadAsMaps(after);
        assertThat(new ClusterLoad(requests, tokens, pod -> PodMetrics.ABSENT, remote, NOW, 0)
                .reading(rows.refresh(after, requests, tokens, remote)).runningRequests(named(after, "d5")))
                .isEqualTo(1);
    }

    @Test
    void aPodRecreatedElsewhere_chargedBeforeTheLedgersDropItsOldEntry_rowsReadTheNewEntry() {
        ModelPods before = ModelPods.of("m", pairs(0, 4, "10.0.0.1"));
        charge(before, "p2", "d2", 100).releaseAll();
        charge(before, "p1", "d1", 40);
        List<Pod> moved = new ArrayList<>(pairs(0, 4, "10.0.0.1"));
        moved.removeIf(p -> p.name().equals("d2"));
        moved.add(withIp(named(before, "d2"), "10.0.0.7")); // discovery sees it first; the upkeep tick has not run
        ModelPods after = ModelPods.of("m", moved);
        assertRowsReadAsMaps(after);
        charge(after, "p3", "d2", 500); // replaces d2's entry in both ledgers: not a first entry
        charge(after, "p0", "d0", 20); // and a first entry in the same interval
        assertRowsReadAsMaps(after);
        assertThat(new ClusterLoad(requests, tokens, pod -> PodMetrics.ABSENT, remote, NOW, 0)
                .reading(rows.refresh(after, requests, tokens, remote)).decodeTokens(named(after, "d2")))
                .as("only the re-created pod's own charge").isEqualTo(500);
    }

    @Test
    void janitorForgetsIdlePods_andOtherReplicasLoadChanges_rowsFollow() {
        ModelPods model = ModelPods.of("m", pairs(0, 4, "10.0.0.1"));
        charge(model, "p2", "d2", 100).releaseAll();
        Lease busy = charge(model, "p3", "d3", 100);
        assertRowsReadAsMaps(model);
        tokens.sweep(NOW + TokenLedger.IDLE_FORGET_NANOS + 1, warning -> { }); // forgets p2 and d2, not p3 and d3
        assertRowsReadAsMaps(model);

        remote = RemoteLoad.sum(List.of(Map.of("default/d1", new RemoteLoad.PodLoad(3, 500, 2, 4.0, 6_000))), 6_000);
        assertRowsReadAsMaps(model);
        remote = RemoteLoad.sum(List.of(Map.of("default/d0", new RemoteLoad.PodLoad(1, 0, 0, 0, 6_000))), 6_000);
        assertRowsReadAsMaps(model);
        busy.releaseAll();
        assertRowsReadAsMaps(model);
    }

    @Test
    void podsDroppedFromTheLedgers_whileTheSnapshotStaysTheSame_readAsDropped() {
        // The tick drops ledger entries by its own view of discovery, which a decision's snapshot may not share yet.
        ModelPods model = ModelPods.of("m", pairs(0, 3, "10.0.0.1"));
        charge(model, "p1", "d1", 100);
        charge(model, "p2", "d2", 100);
        assertRowsReadAsMaps(model);
        Map<String, String> present = new java.util.HashMap<>();
        model.pods().forEach(p -> present.put(p.id(), p.address()));
        present.remove("default/d1");
        present.remove("default/p2");
        requests.retainOnly(present);
        tokens.retainOnly(present);
        assertRowsReadAsMaps(model);
    }

    @Test
    void aPodOutsideTheSnapshot_isReadFromTheMaps() {
        ModelPods model = ModelPods.of("m", pairs(0, 2, "10.0.0.1"));
        ModelPods other = ModelPods.of("m", pairs(0, 3, "10.0.0.1"));
        charge(other, "p2", "d2", 40);
        ClusterLoad viaRows = new ClusterLoad(requests, tokens, pod -> PodMetrics.ABSENT, remote, NOW, 0)
                .reading(rows.refresh(model, requests, tokens, remote));
        assertThat(viaRows.inFlightPrefills(named(other, "p2"))).isEqualTo(1);
        assertThat(viaRows.decodeTokens(named(other, "d2"))).isEqualTo(40);
        assertThat(viaRows.inFlightPrefills(named(other, "p0"))).as("equal pod, other object: the maps").isZero();
    }
}
