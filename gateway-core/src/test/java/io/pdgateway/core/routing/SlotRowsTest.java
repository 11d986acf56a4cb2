package io.pdgateway.core.routing;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.ledger.LedgerRows;
import io.pdgateway.core.ledger.RemoteLoad;
import io.pdgateway.core.ledger.RequestLedger;
import io.pdgateway.core.ledger.TokenLedger;
import io.pdgateway.core.model.MetricsRows;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.model.ScrapedMetrics;
import io.pdgateway.core.predict.PrefillModels;
import io.pdgateway.core.predict.PrefillRows;
import io.pdgateway.core.predict.PrefillState;
import io.pdgateway.core.predict.PrefillTimeModel;
import io.pdgateway.core.routing.score.ConductorPrefillScorer;
import io.pdgateway.core.routing.score.DecodeInputs;
import io.pdgateway.core.routing.score.DecodeLoads;
import io.pdgateway.core.routing.score.InFlightCounts;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A decision's load view reads the scraped metrics and the prefill-time models through the model's rows (arrays by
 * pod slot) and must read exactly what the store and the models say by pod id: metrics fresh, stale (judged at the
 * store's clock) or never scraped, a scrape replacing a pod's value between decisions, a pod's first scrape, pods
 * dropped, a new snapshot; a prefill model before and after the pod's first leg.
 */
class SlotRowsTest {
    private static final long NOW = 100_000_000_000L;
    private static final long STALE = 5_000_000_000L;
    private final RequestLedger requests = new RequestLedger();
    private final TokenLedger tokens = new TokenLedger();
    private final LedgerRows rows = new LedgerRows();
    private final MetricsRows metricsRows = new MetricsRows();
    private final PrefillRows prefillRows = new PrefillRows();
    private final Store store = new Store();
    private final PrefillModels prefillModels = new PrefillModels(
            p -> new PrefillTimeModel.Coefficients(5, 0.02, 1e-7), p -> 10_000);

    /** The store as a server keeps it: one entry per pod, values replaced in place, a version for the entry set. */
    private static final class Store implements ScrapedMetrics {
        final Map<String, Entry> entries = new HashMap<>();
        long version;
        long now = NOW;

        void put(String podId, PodMetrics metrics) {
            Entry entry = entries.get(podId);
            if (entry == null) {
                entries.put(podId, new Entry(metrics));
                version++;
            } else {
                entry.latest(metrics);
            }
        }

        void remove(String podId) {
            entries.remove(podId);
            version++;
        }

        @Override
        public long entriesVersion() {
            return version;
        }

        @Override
        public Entry entry(String podId) {
            return entries.get(podId);
        }

        @Override
        public long nowNanos() {
            return now;
        }

        @Override
        public long staleAfterNanos() {
            return STALE;
        }
    }

    private static ModelPods model(int rolesets) {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < rolesets; i++) {
            pods.add(pod("p" + i).prefill("rs" + i).build());
            pods.add(pod("d" + i).decode("rs" + i).build());
        }
        return ModelPods.of("m", pods);
    }

    private static PodMetrics scraped(double waiting, long atNanos) {
        return new PodMetrics(waiting, Double.NaN, Double.NaN, 0.5, 100 + waiting, 30, 1000, atNanos);
    }

    private static double[] state(ClusterLoad load, Pod pod) {
        double[] state = new double[PrefillState.WIDTH];
        assertThat(load.prefillState(pod, state, 0)).as(pod.id()).isTrue();
        return state;
    }

    /** Every pod read through fresh rows, in side order and shuffled, equals the store's and the models' answer. */
    private void assertRowsReadAsMaps(ModelPods model) {
        ClusterLoad byId = new ClusterLoad(requests, tokens, store, RemoteLoad.NONE, prefillModels, NOW, 7_000);
        ClusterLoad viaRows = new ClusterLoad(requests, tokens, store, RemoteLoad.NONE, prefillModels, NOW, 7_000)
                .reading(rows.refresh(model, requests, tokens, RemoteLoad.NONE));
        viaRows.readingMetrics(metricsRows.refresh(rows.slots(), store), store)
                .readingPrefillModels(prefillRows); // brought up to date by the first read
        List<Pod> shuffled = new ArrayList<>(model.pods());
        Collections.shuffle(shuffled, new Random(model.pods().size()));
        for (List<Pod> order : List.of(model.prefillPods(), model.decodePods(), shuffled)) {
            for (Pod pod : order) {
                assertThat(viaRows.metrics(pod)).as(pod.id()).isEqualTo(byId.metrics(pod));
                assertThat(state(viaRows, pod)).as(pod.id()).containsExactly(state(byId, pod));
                assertThat(Double.valueOf(viaRows.prefillModelError(pod))).as(pod.id()) // boxed: NaN equals NaN
                        .isEqualTo(Double.valueOf(byId.prefillModelError(pod)))
                        .isEqualTo(Double.valueOf(prefillModels.error(pod.id())));
            }
        }
        // conductor reads each busy prefill pod's mean prefill time from the rows' copies: the same scores.
        double[] conductorBySlot = new ConductorPrefillScorer()
                .score(Contexts.request().load(viaRows).over(model.prefillPods(), 1), model.prefillPods()).clone();
        assertThat(conductorBySlot).containsExactly(new ConductorPrefillScorer()
                .score(Contexts.request().load(byId).over(model.prefillPods(), 1), model.prefillPods()));
        // The decode side is read by slot without its pods' objects (the rows know its slots): the same inputs.
        assertThat(viaRows.slotsOf(model.decodePods())).isNotNull();
        DecodeInputs bySlot = DecodeInputs.of(model.decodePods(), viaRows);
        DecodeInputs byPod = DecodeInputs.of(model.decodePods(), byId);
        for (int i = 0; i < model.decodePods().size(); i++) {
            String pod = model.decodePods().get(i).id();
            assertThat(bySlot.count(i)).as(pod).isEqualTo(byPod.count(i));
            assertThat(bySlot.observed(i)).as(pod).isEqualTo(byPod.observed(i));
            assertThat(bySlot.throughput(i)).as(pod).isEqualTo(byPod.throughput(i));
            assertThat(bySlot.throughputObserved(i)).as(pod).isEqualTo(byPod.throughputObserved(i));
            assertThat(bySlot.free(i)).as(pod).isEqualTo(byPod.free(i));
        }
        assertThat(InFlightCounts.of(model.prefillPods(), viaRows)).as("prefill side by slot")
                .containsExactly(InFlightCounts.of(model.prefillPods(), byId));
        assertThat(viaRows.slotsOf(model.prefillPods())).isNotNull();
        for (Pod pod : model.prefillPods()) {
            int slot = viaRows.slotsOf(model.prefillPods())[model.prefillPods().indexOf(pod)];
            assertThat(viaRows.activeTokensAt(slot)).as(pod.id()).isEqualTo(byId.activeTokens(pod));
            assertThat(viaRows.kvTokensAt(slot)).as(pod.id()).isEqualTo(byId.kvTokens(pod));
            double avgPrefill = viaRows.freshMetricAt(slot, MetricsRows.Column.AVG_PREFILL_MILLIS); // conductor's read
            assertThat(Double.valueOf(avgPrefill)).as(pod.id())
                    .isEqualTo(Double.valueOf(byId.metrics(pod).avgPrefillMillis()));
        }
        // A subset of the prefill side (the stddev skip's kept pods, what predicted_ttft scores) is read by slot too:
        // each kept pod's slot, with its model and queue and its position among the computing pods.
        PodSubset kept = new PodSubset().reset(model.prefillPods(), model.prefillPods().size());
        for (int i = 1; i < model.prefillPods().size(); i += 2) {
            kept.add(i);
        }
        int[] keptSlots = viaRows.slotsOfCandidates(kept, DecisionBuffers.Use.PREFILL_SLOTS);
        assertThat(keptSlots).hasSize(kept.size());
        for (int i = 0; i < kept.size(); i++) {
            Pod pod = kept.get(i);
            double[] keptState = new double[PrefillState.WIDTH];
            assertThat(viaRows.prefillStateAt(keptSlots[i], keptState, 0)).as(pod.id()).isTrue();
            assertThat(keptState).as(pod.id()).containsExactly(state(byId, pod));
            assertThat(viaRows.slots().pod(keptSlots[i])).as(pod.id()).isSameAs(pod);
            assertThat(viaRows.slots().computingPositionAt(keptSlots[i])).as(pod.id())
                    .isEqualTo(model.computingPods().indexOf(pod));
        }
        DecodeLoads loadsBySlot = DecodeLoads.of(model.decodePods(), viaRows);
        DecodeLoads loadsByPod = DecodeLoads.of(model.decodePods(), byId);
        for (int i = 0; i < model.decodePods().size(); i++) {
            String pod = model.decodePods().get(i).id();
            assertThat(loadsBySlot.running(i)).as(pod).isEqualTo(loadsByPod.running(i));
            assertThat(loadsBySlot.tokens(i)).as(pod).isEqualTo(loadsByPod.tokens(i));
            assertThat(loadsBySlot.ageSeconds(i)).as(pod).isEqualTo(loadsByPod.ageSeconds(i));
            assertThat(Double.valueOf(loadsBySlot.throughput(i))).as(pod) // boxed: NaN (no scrape) equals NaN
                    .isEqualTo(Double.valueOf(loadsByPod.throughput(i)));
            assertThat(Double.valueOf(loadsBySlot.kvUsage(i))).as(pod).isEqualTo(Double.valueOf(loadsByPod.kvUsage(i)));
        }
    }

    @Test
    void metrics_freshStaleOrNone_replacedAdded_andDropped() {
        ModelPods model = model(20);
        for (int i = 0; i < 20; i += 3) { // some decode pods hold requests and tokens: the ledger reads differ by pod
            Pod prefill = model.prefillPods().get(i);
            Pod decode = model.decodePods().get(i);
            requests.charge(RouteDecision.pair(prefill, decode, "test", "", java.util.Map.of()));
            tokens.charge(prefill, 100 + i, decode, 100L * i, 60_000_000_000L, NOW - i * 1_000_000_000L);
        }
        for (int i = 0; i < 20; i += 2) {
            store.put("default/p" + i, scraped(i, NOW - (i % 4 == 0 ? 1_000 : 2 * STALE))); // every other one stale
            store.put("default/d" + i, scraped(i + 1, NOW));
        }
        assertRowsReadAsMaps(model);
        assertThat(metricsRows.metrics(0, NOW, STALE).present()).as("p0 was scraped just now").isTrue();

        store.put("default/p0", scraped(42, NOW - 3 * STALE)); // replaced in place: same entries, same version
        store.put("default/d2", scraped(7, NOW));
        assertRowsReadAsMaps(model);

        store.put("default/p1", scraped(3, NOW)); // a pod's first scrape
        store.remove("default/d4");
        assertRowsReadAsMaps(model);

        store.now = NOW + 2 * STALE; // a later decision: everything older than the limit reads as none
        assertRowsReadAsMaps(model);
        store.now = NOW;

        ModelPods grown = model(25); // a new snapshot: new slots, new objects
        store.put("default/d23", scraped(5, NOW));
        assertRowsReadAsMaps(grown);
        assertRowsReadAsMaps(model);
    }

    @Test
    void prefillModels_beforeAndAfterEachPodsFirstLeg_andDropped() {
        ModelPods model = model(12);
        assertRowsReadAsMaps(model); // no queues yet: the reads make them
        for (int i = 0; i < 12; i += 3) {
            Pod pod = model.prefillPods().get(i);
            PrefillModels.Ticket ticket = prefillModels.dispatched(pod, 2_000, 0, NOW - 50_000_000L);
            if (i % 2 == 0) {
                prefillModels.answered(ticket, NOW - 10_000_000L);
            }
        }
        assertRowsReadAsMaps(model);
        // A leg answered between two decisions changes the pod's fit but not the set of queues: the next decision reads
        // the new fit, not the copy the last one made.
        Pod learning = model.prefillPods().get(0);
        prefillModels.answered(prefillModels.dispatched(learning, 6_000, 0, NOW - 90_000_000L), NOW - 1_000_000L);
        assertRowsReadAsMaps(model);
        ModelPods again = model(12); // a new snapshot of the same pods: its rows hold the queues with legs and fits
        assertRowsReadAsMaps(again);
        prefillModels.retainOnly(java.util.Set.of("default/p3")); // the others' queues dropped: fresh ones from now
        assertRowsReadAsMaps(again);
    }

    @Test
    void prefillModels_aLegSentOrAbandonedAlone_andAModelDueToFade_readAsTheModels() {
        ModelPods model = model(6);
        Pod busy = model.prefillPods().get(1);
        Pod idle = model.prefillPods().get(2);
        // Answered 19 s ago with a 10 s fade period: a read now must fade it (and the copy the rows made before must
        // not stand in for it).
        prefillModels.answered(prefillModels.dispatched(idle, 4_000, 0, NOW - 20_000_000_000L), NOW - 19_000_000_000L);
        prefillModels.dispatched(busy, 1_000, 0, NOW - 30_000_000L);
        assertRowsReadAsMaps(model);
        PrefillModels.Ticket second = prefillModels.dispatched(busy, 3_000, 500, NOW - 20_000_000L); // sent alone
        assertRowsReadAsMaps(model);
        prefillModels.abandoned(second, NOW - 10_000_000L); // abandoned alone: the queue's head starts again
        assertRowsReadAsMaps(model);
        assertRowsReadAsMaps(model); // the faded model, read again
    }
}
