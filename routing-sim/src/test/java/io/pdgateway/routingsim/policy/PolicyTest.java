package io.pdgateway.routingsim.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.routing.DecisionKind;
import io.pdgateway.core.routing.LoadView;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.RouteRequest;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Strategy;
import io.pdgateway.routingsim.cluster.SimCluster;
import io.pdgateway.routingsim.engine.EngineListener;
import io.pdgateway.routingsim.engine.EngineRequest;
import io.pdgateway.routingsim.engine.SimEngine;
import io.pdgateway.routingsim.event.EventQueue;
import io.pdgateway.routingsim.run.SimFixtures;
import io.pdgateway.routingsim.workload.BlockHashes;
import io.pdgateway.routingsim.workload.SimRequest;
import io.pdgateway.routingsim.workload.Workload;
import io.pdgateway.workload.Slo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The registry resolves names or says which exist; the floor rotates through eligible pairs without looking at load
 * and falls back like the cascade; the oracle steers around a prefill pod it knows is busy.
 */
class PolicyTest {
    private final EventQueue queue = new EventQueue();
    private final SimCluster cluster = SimCluster.build(SimFixtures.smallCluster(), queue, 50_000_000L);
    private final GatewaySettings settings = GatewaySettings.fromEnv(Map.of("AIBRIX_PROMPT_LENGTH_BUCKETING", "true"));

    private RoutingContext context(int index, int promptTokens) {
        return new RoutingContext(new RouteRequest("my-model", Integer.toString(index), promptTokens, Strategy.PD, null,
                settings.pd(), null, null), cluster.model(), LoadView.IDLE, null,
                new SplittableRandom(1), 1);
    }

    @Test
    void registry_defaultsResolve_unknownNamesListTheKnownOnes() {
        assertThat(PolicyRegistry.resolve(PolicyRegistry.DEFAULT)).extracting(PolicySpec::family)
                .startsWith("floor").endsWith("ceiling");
        assertThat(PolicyRegistry.resolve("pd:token_load:least_request").environment())
                .containsEntry("AIBRIX_PREFILL_SCORE_POLICY", "token_load")
                .containsEntry("AIBRIX_DECODE_SCORE_POLICY", "least_request");
        assertThat(PolicyRegistry.resolve("random").strategyHeader()).isEqualTo("random");
        assertThatThrownBy(() -> PolicyRegistry.resolve("lru")).hasMessageContaining("round-robin")
                .hasMessageContaining("oracle");
        assertThatThrownBy(() -> PolicyRegistry.resolve("pd:load_balancing:prefix_cache"))
                .hasMessageContaining("pd:<prefill>:<decode>");
    }

    @Test
    void roundRobin_cyclesThroughThePairs_andFallsBackLikeTheCascade() {
        RoundRobinPolicy floor = new RoundRobinPolicy(true);
        List<String> rolesets = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            rolesets.add(floor.route(context(i, 1000)).prefill().rolesetName());
        }
        assertThat(rolesets).containsExactly("pd-0", "pd-1", "pd-2", "pd-0", "pd-1", "pd-2");
        RouteDecision longPrompt = floor.route(context(6, 9000));
        assertThat(longPrompt.kind()).isEqualTo(DecisionKind.SINGLE);
        assertThat(longPrompt.target().name()).isEqualTo("std-0");
    }

    @Test
    void oracle_avoidsThePrefillPodItKnowsIsBusy() {
        List<SimRequest> requests = List.of(new SimRequest(0, 0, 2000, 50, BlockHashes.unique(0, 2000, 16), null));
        OraclePolicy oracle = new OraclePolicy(true, cluster, new Workload("one", "test", requests), Slo.INTERACTIVE);
        // Queue a long prefill on pd-0's and pd-1's prefill pods; the gateway's load view (IDLE here) cannot see it.
        for (SimEngine engine : cluster.engines()) {
            String name = engine.pod().name();
            if (name.equals("pd-0-prefill-0") || name.equals("pd-1-prefill-0")) {
                engine.submit(new EngineRequest(new long[0], 4000, 1, true, IGNORE));
            }
        }
        RouteDecision decision = oracle.route(context(0, 2000));
        assertThat(decision.prefill().name()).isEqualTo("pd-2-prefill-0");
        assertThat(decision.step()).isEqualTo(OraclePolicy.STEP);
    }

    private static final EngineListener IGNORE = new EngineListener() {
        @Override
        public void firstToken(SimEngine engine, EngineRequest request, long now) { }

        @Override
        public void finished(SimEngine engine, EngineRequest request, long now) { }

        @Override
        public void rejected(SimEngine engine, EngineRequest request, String reason, long now) { }
    };
}
