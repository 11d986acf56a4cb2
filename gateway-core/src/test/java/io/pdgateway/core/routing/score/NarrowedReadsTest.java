package io.pdgateway.core.routing.score;

import static io.pdgateway.core.PodBuilder.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.ledger.RequestLedger;
import io.pdgateway.core.ledger.TokenLedger;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.routing.ClusterLoad;
import io.pdgateway.core.routing.RouteDecision;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A scorer that narrows a side (the cold start's warm pods, the stddev skip's kept pods) reads its pods' decode inputs
 * and in-flight counts as copies of what the decision already read for the whole side. The copies must be what a read
 * of the kept pods alone finds: each pod's values, and maxima over the kept pods only (the batch the policy normalises
 * by). And a list refilled after its reads were kept must not be served the old ones.
 */
class NarrowedReadsTest {
    private final RequestLedger requests = new RequestLedger();
    private final TokenLedger tokens = new TokenLedger();
    private final Map<String, PodMetrics> metrics = new HashMap<>();
    private final List<Pod> decodes = new ArrayList<>();
    private final List<Pod> prefills = new ArrayList<>();

    NarrowedReadsTest() {
        for (int i = 0; i < 6; i++) {
            Pod prefill = pod("p" + i).prefill("rs" + i).build();
            Pod decode = pod("d" + i).decode("rs" + i).build();
            prefills.add(prefill);
            decodes.add(decode);
            // Pod i runs i requests (its prefill pod i legs); the largest count, throughput and free KV are on pods the
            // narrowing leaves out, so the kept maxima differ from the whole side's.
            for (int r = 0; r < i; r++) {
                requests.charge(RouteDecision.pair(prefill, decode, "test", "", Map.of()));
            }
            metrics.put(decode.id(), new PodMetrics(0, i, 0.1 * i, 0.9 - 0.1 * i, 10.0 * (6 - i), 30, 1000, 0));
        }
    }

    private ClusterLoad decision() {
        return new ClusterLoad(requests, tokens, pod -> metrics.getOrDefault(pod.id(), PodMetrics.ABSENT), 0);
    }

    @Test
    void aNarrowedSide_readsWhatTheKeptPodsAloneRead() {
        boolean[] keep = {false, true, true, false, true, false};
        List<Pod> kept = List.of(decodes.get(1), decodes.get(2), decodes.get(4));
        ClusterLoad narrowed = decision();
        DecodeInputs whole = DecodeInputs.of(decodes, narrowed);
        assertThat(whole.maxCount).isEqualTo(5);
        narrowed.sideReads().narrowed(kept, decodes, keep);

        DecodeInputs copied = DecodeInputs.of(kept, narrowed);
        DecodeInputs read = DecodeInputs.of(kept, decision());

        assertThat(copied).isNotSameAs(whole);
        assertThat(copied.count).containsExactly(read.count);
        assertThat(copied.count).containsExactly(1, 2, 4);
        assertThat(copied.observed).containsExactly(read.observed);
        assertThat(copied.throughput).containsExactly(read.throughput);
        assertThat(copied.throughputObserved).containsExactly(read.throughputObserved);
        assertThat(copied.free).containsExactly(read.free);
        assertThat(copied.maxCount).isEqualTo(read.maxCount).isEqualTo(4);
        assertThat(copied.maxThroughput).isEqualTo(read.maxThroughput).isEqualTo(50);
        assertThat(copied.maxFree).isEqualTo(read.maxFree).isEqualTo(50);
        // The whole side's own inputs are untouched by the copy.
        assertThat(whole.count).containsExactly(0, 1, 2, 3, 4, 5);
    }

    @Test
    void aNarrowedPrefillSide_readsTheKeptPodsCounts() {
        boolean[] keep = {true, false, false, true, false, true};
        List<Pod> kept = List.of(prefills.get(0), prefills.get(3), prefills.get(5));
        ClusterLoad narrowed = decision();
        double[] whole = InFlightCounts.of(prefills, narrowed);
        narrowed.sideReads().narrowed(kept, prefills, keep);

        assertThat(InFlightCounts.of(kept, narrowed)).containsExactly(InFlightCounts.of(kept, decision()))
                .containsExactly(0, 3, 5);
        assertThat(whole).containsExactly(0, 1, 2, 3, 4, 5);
    }

    @Test
    void aListRefilledAfterItsReads_isReadAgain() {
        List<Pod> kept = new ArrayList<>(List.of(decodes.get(0), decodes.get(1)));
        ClusterLoad load = decision();
        DecodeInputs.of(decodes, load);
        load.sideReads().narrowed(kept, decodes, new boolean[] {true, true, false, false, false, false});
        assertThat(DecodeInputs.of(kept, load).count).containsExactly(0, 1);

        kept.clear();
        kept.add(decodes.get(5));
        load.sideReads().narrowed(kept, decodes, new boolean[] {false, false, false, false, false, true});
        assertThat(DecodeInputs.of(kept, load).count).containsExactly(5);
    }
}
