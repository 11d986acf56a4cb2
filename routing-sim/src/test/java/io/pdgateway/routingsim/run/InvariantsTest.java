package io.pdgateway.routingsim.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.routingsim.cluster.SimCluster;
import io.pdgateway.routingsim.engine.EngineListener;
import io.pdgateway.routingsim.engine.EngineRequest;
import io.pdgateway.routingsim.engine.SimEngine;
import io.pdgateway.routingsim.event.EventQueue;
import io.pdgateway.core.session.Routed;
import io.pdgateway.core.session.RoutingSession;
import io.pdgateway.routingsim.gateway.SimGateway;
import io.pdgateway.routingsim.workload.Workload;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The end-of-run check catches what it is for: a request that never ended, a charge never released, an engine left
 * with work. And the simulated gateway charges what production charges: request counts, and on the token_load path
 * request_cost + prompt (+ the JSON envelope of the body estimate) on the prefill pod.
 */
class InvariantsTest {
    private final EventQueue queue = new EventQueue();
    private final SimCluster cluster = SimCluster.build(SimFixtures.smallCluster(), queue, 50_000_000L);
    private final GatewaySettings settings = GatewaySettings.fromEnv(Map.of("AIBRIX_PROMPT_LENGTH_BUCKETING", "true",
            "AIBRIX_PREFILL_SCORE_POLICY", "token_load", "AIBRIX_DECODE_SCORE_POLICY", "token_load"));
    private final SimGateway gateway = new SimGateway(settings, null,
            RoutingSession.productionRouter(settings.routing()), cluster, queue, 16, 1);
    private final Workload chat = SimFixtures.chat(5);

    @Test
    void leakedCharge_andUnfinishedRequest_areReported() {
        Routed routed = gateway.route(chat.requests().get(0));
        assertThat(routed.decision().isPd()).isTrue();
        // token_load: 3500 + prompt + 22 on the prefill pod, the prompt + 22 on the decode pod.
        long expected = 3500 + chat.requests().get(0).promptTokens() + 22;
        assertThat(gateway.tokens().activeTokens(routed.decision().prefill().id())).isEqualTo(expected);
        assertThat(gateway.ledger().inFlightPrefills(routed.decision().prefill())).isEqualTo(1);

        var violations = PolicyRun.invariants(new RequestRecord[1], gateway, cluster);
        assertThat(violations).anyMatch(v -> v.contains("never finished"))
                .anyMatch(v -> v.contains("request ledger not at zero"))
                .anyMatch(v -> v.contains("token ledger not at zero"));

        routed.lease().release();
        routed.lease().release(); // idempotent, as in production
        assertThat(gateway.ledger().outstanding()).isZero();
        assertThat(gateway.tokens().outstandingTokens()).isZero();
    }

    @Test
    void engineLeftWithWork_isReported() {
        SimEngine engine = cluster.engines().get(0);
        engine.submit(new EngineRequest(new long[0], 100, 10, true, new EngineListener() {
            @Override
            public void firstToken(SimEngine e, EngineRequest r, long now) { }

            @Override
            public void finished(SimEngine e, EngineRequest r, long now) { }

            @Override
            public void rejected(SimEngine e, EngineRequest r, String reason, long now) { }
        }));
        assertThat(PolicyRun.invariants(new RequestRecord[0], gateway, cluster))
                .anyMatch(v -> v.contains("engine not idle") && v.contains("inOverhead=1"));
        queue.run();
        assertThat(PolicyRun.invariants(new RequestRecord[0], gateway, cluster)).isEmpty();
    }
}
