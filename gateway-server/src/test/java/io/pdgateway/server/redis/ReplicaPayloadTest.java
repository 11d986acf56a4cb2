package io.pdgateway.server.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.pdgateway.core.ledger.RemoteLoad;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Replica payloads round-trip; replicas sum per pod; ages extrapolate to now; garbage is ignored. */
class ReplicaPayloadTest {
    @Test
    void roundTrip_andSumAcrossReplicas() {
        String a = ReplicaPayload.encode(1_000, Map.of("ns/d1", new RemoteLoad.PodLoad(2, 500, 2, 3.0, 1_000)));
        String b = ReplicaPayload.encode(1_500, Map.of("ns/d1", new RemoteLoad.PodLoad(1, 100, 1, 0.5, 1_500),
                "ns/d2", new RemoteLoad.PodLoad(4, 0, 0, 0, 1_500)));
        RemoteLoad sum = RemoteLoad.sum(List.of(ReplicaPayload.decode(a), ReplicaPayload.decode(b)), 2_000);
        RemoteLoad.PodLoad d1 = sum.pod("ns/d1");
        assertThat(d1.running()).isEqualTo(3);
        assertThat(d1.decodeTokens()).isEqualTo(600);
        assertThat(d1.decodeRequests()).isEqualTo(3);
        // a: 3.0 + 2 requests × 1.0 s; b: 0.5 + 1 × 0.5 s → 6.0 at t=2000, then +3 × 1 s at t=3000.
        assertThat(d1.ageSumSecondsAt(2_000)).isCloseTo(6.0, within(1e-9));
        assertThat(d1.ageSumSecondsAt(3_000)).isCloseTo(9.0, within(1e-9));
        assertThat(sum.pod("ns/d2").running()).isEqualTo(4);
        assertThat(sum.pod("ns/other")).isNull();
    }

    @Test
    void unreadablePayload_ignored() {
        assertThat(ReplicaPayload.decode("something else")).isEmpty();
        assertThat(ReplicaPayload.decode("pdgw1\n12\nns/d\tx\t1\t1\t0")).isEmpty();
    }
}
