package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.core.ledger.RemoteLoad;
import io.pdgateway.core.ledger.RequestLedger;
import io.pdgateway.core.ledger.TokenLedger;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.routing.Strategy;
import io.pdgateway.core.routing.Verdict;
import io.pdgateway.server.redis.SharedLedgerSync;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Replica liveness in the shared ledger is judged by Redis's clock, not a replica's: two replicas on one real Redis,
 * one of whose wall clocks is ten seconds behind (then ahead), still see each other's running requests every round.
 * Judged by the replicas' own clocks, the one behind published heartbeats the other dropped at once as ten seconds
 * stale (and the one ahead dropped the other).
 */
class SharedLedgerClockSkewIT {
    private static final long SKEW_MS = 10_000;
    private final Vertx vertx = Vertx.vertx();
    private RedisProcess redis;
    private SharedLedgerSync a;
    private SharedLedgerSync b;

    @AfterEach
    void tearDown() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
        vertx.close().await();
        if (redis != null) {
            redis.close();
        }
    }

    private static Pod pod(String name) {
        return new Pod("default", name, "m", "127.0.0.1", 8000, 8000, "vllm", PodRole.OTHER, null, null, 8998, null,
                Map.of());
    }

    private static long running(SharedLedgerSync sync, Pod pod) {
        RemoteLoad.PodLoad load = sync.remote().pod(pod.id());
        return load == null ? 0 : load.running();
    }

    private void twoReplicas(long skewOfB) throws Exception {
        redis = new RedisProcess();
        RequestLedger ledgerA = new RequestLedger();
        RequestLedger ledgerB = new RequestLedger();
        a = new SharedLedgerSync(vertx, "127.0.0.1", redis.port, null, ledgerA, new TokenLedger(), true);
        b = new SharedLedgerSync(vertx, "127.0.0.1", redis.port, null, ledgerB, new TokenLedger(), true,
                () -> System.currentTimeMillis() + skewOfB);
        Pod onA = pod("pod-a");
        Pod onB = pod("pod-b");
        ledgerA.charge(RouteDecision.single(onA, Verdict.SINGLE_POD_SELECTED, Strategy.DEFAULT, "test", "a"));
        ledgerB.charge(RouteDecision.single(onB, Verdict.SINGLE_POD_SELECTED, Strategy.DEFAULT, "test", "b"));
        a.start();
        b.start();

        // Both see the other, and keep seeing it over many rounds (a dropped replica would vanish within one).
        await().atMost(Duration.ofSeconds(5)).until(() -> running(a, onB) == 1 && running(b, onA) == 1);
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).pollInterval(Duration.ofMillis(50))
                .until(() -> running(a, onB) == 1 && running(b, onA) == 1);
    }

    @Test
    void replicaClockTenSecondsBehind_bothStillSeeEachOther() throws Exception {
        twoReplicas(-SKEW_MS);
    }

    @Test
    void replicaClockTenSecondsAhead_bothStillSeeEachOther() throws Exception {
        twoReplicas(SKEW_MS);
    }

}
