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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The decode loads token_load scores from and predicted_ttft's picker checks limits with are each pod's own reads
 * (running requests, ledger tokens and their age, scraped throughput and KV use, NaN where never scraped), read once
 * per decision: the picker's read of the scorer's list is the scorer's, a read of another list is its own.
 */
class DecodeLoadsTest {
    @Test
    void eachPodsReads_onceForTheDecision() {
        RequestLedger requests = new RequestLedger();
        TokenLedger tokens = new TokenLedger();
        List<Pod> decodes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Pod prefill = pod("p" + i).prefill("rs" + i).build();
            Pod decode = pod("d" + i).decode("rs" + i).build();
            decodes.add(decode);
            for (int r = 0; r <= i; r++) {
                requests.charge(RouteDecision.pair(prefill, decode, "test", "", Map.of()));
                tokens.charge(prefill, 1000, decode, 100L * (i + 1), 60_000_000_000L, 0);
            }
        }
        // d2 never scraped.
        Map<String, PodMetrics> metrics = Map.of(decodes.get(0).id(), new PodMetrics(0, 0, 0, 0.25, 40, 30, 1000, 0),
                decodes.get(1).id(), new PodMetrics(0, 0, 0, 0.5, 80, 30, 1000, 0));
        ClusterLoad load = new ClusterLoad(requests, tokens, pod -> metrics.getOrDefault(pod.id(), PodMetrics.ABSENT),
                5_000_000_000L);

        DecodeLoads read = DecodeLoads.of(decodes, load);

        for (int i = 0; i < decodes.size(); i++) {
            Pod pod = decodes.get(i);
            assertThat(read.running(i)).as(pod.id()).isEqualTo(load.runningRequests(pod)).isEqualTo(i + 1);
            assertThat(read.tokens(i)).as(pod.id()).isEqualTo(load.decodeTokens(pod))
                    .isEqualTo(100.0 * (i + 1) * (i + 1));
            // Each of the pod's i + 1 charges was routed 5 s before the decision.
            assertThat(read.ageSeconds(i)).as(pod.id()).isEqualTo(load.decodeAgeSeconds(pod)).isEqualTo(5.0 * (i + 1));
        }
        assertThat(read.throughput(0)).isEqualTo(40);
        assertThat(read.kvUsage(1)).isEqualTo(0.5);
        assertThat(read.throughput(2)).isNaN();
        assertThat(read.kvUsage(2)).isNaN();
        assertThat(DecodeLoads.of(decodes, load)).isSameAs(read);
        assertThat(DecodeLoads.of(decodes.subList(0, 2), load)).isNotSameAs(read);
    }
}
