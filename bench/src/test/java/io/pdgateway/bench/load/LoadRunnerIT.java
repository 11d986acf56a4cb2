package io.pdgateway.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.spec.SpecHeaders;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.RecordedRequest;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import io.pdgateway.workload.LengthDistribution;
import io.pdgateway.workload.LoadRequest;
import io.pdgateway.workload.LoadSchedule;
import io.pdgateway.workload.SyntheticWorkload;
import io.pdgateway.workload.prompt.PromptPlan;
import io.pdgateway.workload.run.RunRecording;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The load generator against a real simulated pod over loopback: every request ends with its timings, sessions send
 * their key, prompts arrive as planned, and a pod that hangs costs a timeout error, never a run that does not end.
 */
class LoadRunnerIT {
    /** Loopback addresses of their own, apart from the other integration tests' pods. */
    private static final String HOST = "127.0.9.2";
    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() {
        vertx.close().await();
    }

    private SimPod pod(FaultConfig faults) {
        return pod(faults, 0.01);
    }

    private SimPod pod(FaultConfig faults, double timeScale) {
        return SimPod.start(vertx, SimConfig.builder().role(SimRole.COMBINED).host(HOST).timeScale(timeScale)
                .faults(faults).build()).await();
    }

    @Test
    @Timeout(60)
    void cappedRun_neverHasMoreInFlight_andStillSendsEveryRequest() {
        SimPod pod = pod(FaultConfig.none(), 1.0); // real time: each stream lasts a few hundred milliseconds
        List<LoadRequest> burst = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            burst.add(new LoadRequest(0, PromptPlan.single(10, i), 16, null));
        }
        LoadSchedule workload = new LoadSchedule("burst", burst);
        StreamingChatClient client = StreamingChatClient.open(vertx, Endpoint.local(HOST, pod.port()),
                SimConfig.DEFAULT_MODEL, Map.of());

        RunRecording open = new LoadRunner(client, ProgressLine.silent(), 20_000).run(workload);
        RunRecording capped = new LoadRunner(client, ProgressLine.silent(), 20_000, 3).run(workload);

        assertThat(mostAtOnce(open)).isGreaterThan(3); // the control: the same burst uncapped overlaps more
        assertThat(capped.abandoned()).isZero();
        assertThat(capped.results()).hasSize(12).allSatisfy(r -> assertThat(r.error()).isNull());
        assertThat(mostAtOnce(capped)).isLessThanOrEqualTo(3);
        assertThat(capped.results()).anySatisfy(r -> assertThat(r.lagMillis()).isGreaterThan(0));
        client.close().await();
    }

    /** The most requests the run had outstanding at one moment, from each one's send and end. */
    private static int mostAtOnce(RunRecording run) {
        List<double[]> edges = new ArrayList<>();
        for (var r : run.results()) {
            edges.add(new double[] {r.startMillis(), 1});
            edges.add(new double[] {r.startMillis() + r.e2eMillis(), -1});
        }
        edges.sort((a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0]) : Double.compare(a[1], b[1])); // ends first
        int now = 0;
        int most = 0;
        for (double[] edge : edges) {
            now += (int) edge[1];
            most = Math.max(most, now);
        }
        return most;
    }

    @Test
    @Timeout(30)
    void openLoopRun_timesEveryStream_andSendsSessionKeys() {
        SimPod pod = pod(FaultConfig.none());
        LoadSchedule workload = new LoadSchedule("test", new SyntheticWorkload(20, 1.5, LengthDistribution.parse("20..60"),
                LengthDistribution.parse("6"), 16, 2, 0.2, 0, 0, 5).generate());
        StreamingChatClient client = StreamingChatClient.open(vertx, Endpoint.local(HOST, pod.port()),
                SimConfig.DEFAULT_MODEL, Map.of("x-test", "yes"));

        RunRecording run = new LoadRunner(client, ProgressLine.silent(), 10_000).run(workload);

        assertThat(run.abandoned()).isZero();
        assertThat(run.results()).hasSize(workload.size()).allSatisfy(r -> {
            assertThat(r.error()).isNull();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.outputTokens()).isEqualTo(6);
            assertThat(r.ttfbMillis()).isGreaterThanOrEqualTo(0);
            assertThat(r.ttftMillis()).isGreaterThanOrEqualTo(r.ttfbMillis());
            assertThat(r.tpotMillis()).isGreaterThanOrEqualTo(0);
            assertThat(r.e2eMillis()).isGreaterThanOrEqualTo(r.ttftMillis());
        });
        assertThat(run.chunkGaps().getTotalCount()).isEqualTo(5L * workload.size());
        List<RecordedRequest> received = pod.recordedRequests().stream()
                .filter(r -> r.path().startsWith("/v1/")).toList();
        assertThat(received).hasSize(workload.size()).allMatch(r -> "yes".equals(r.header("x-test")));
        assertThat(received).allMatch(r -> r.header(SpecHeaders.SESSION_KEY) != null);
        LoadRequest first = workload.requests().get(0);
        assertThat(received).anyMatch(r -> r.json().path("messages").path(0).path("content").asText()
                .equals(first.prompt().text()));
        client.close().await();
    }

    @Test
    @Timeout(30)
    void hangingPod_costsATimeoutError_andTheRunEnds() {
        SimPod pod = pod(FaultConfig.none().withHangBeforeHeaders());
        LoadSchedule workload = new LoadSchedule("test", List.of(new LoadRequest(0, PromptPlan.single(10, 1), 4, null)));
        StreamingChatClient client = StreamingChatClient.open(vertx, Endpoint.local(HOST, pod.port()),
                SimConfig.DEFAULT_MODEL, Map.of());
        long start = System.nanoTime();

        RunRecording run = new LoadRunner(client, ProgressLine.silent(), 500).run(workload);

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        assertThat(run.results()).singleElement().satisfies(r -> assertThat(r.errorKind()).isEqualTo("timeout"));
        client.close().await();
    }
}
