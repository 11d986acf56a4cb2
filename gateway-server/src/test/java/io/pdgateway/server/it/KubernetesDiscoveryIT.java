package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.core.spec.SpecLabels;
import io.pdgateway.core.spec.SpecStrategies;
import io.pdgateway.server.discovery.KubernetesDiscovery;
import io.pdgateway.server.metrics.GatewayMetrics;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Kubernetes discovery against the fabric8 mock API server in CRUD mode: pod objects whose podIP points at simulated
 * pods, changed the way controllers change them, and real requests through the gateway to see where they land.
 */
class KubernetesDiscoveryIT {
    /** The promise: routing follows a pod event within one second. */
    private static final Duration FOLLOW = Duration.ofSeconds(1);
    private static final String NS = "default";
    /** A fifth of real H100 speed: 1.4 ms a token, so a 1000-token stream stays open for over a second. */
    private static final double SLOW_TIME_SCALE = 0.2;
    private static final String STANDARD = "{\"profiles\":{\"default\":{\"routingConfig\":{\"combined\":true}}}}";
    /** A bucket that the one-token test prompt falls outside of: the roleset stops matching. */
    private static final String LONG_PROMPTS_ONLY =
            "{\"profiles\":{\"default\":{\"routingConfig\":{\"promptLenBucketMinLength\":1000}}}}";

    private TestCluster cluster;
    private MockKubernetes kube;

    @AfterEach
    void tearDown() {
        try {
            if (cluster != null) {
                cluster.close();
            }
        } finally {
            if (kube != null) {
                kube.close();
            }
        }
    }

    private void start(List<String> namespaces, Map<String, String> env) throws Exception {
        KubernetesDiscovery discovery = new KubernetesDiscovery(kube.gatewayClient(), namespaces).start();
        cluster.startGateway(env, discovery);
        await().atMost(Duration.ofSeconds(10)).until(() -> cluster.get("/readyz").statusCode() == 200);
    }

    private void start() throws Exception {
        start(List.of(), Map.of(SpecEnv.PROMPT_LENGTH_BUCKETING, "true"));
    }

    private Pod podObject(String name, SimRole role, String roleset, String config) {
        SimPod sim = cluster.sim(name, role, FaultConfig.none());
        return MockKubernetes.pod(NS, name, sim, labels(sim, role, roleset),
                config == null ? Map.of() : Map.of(SpecLabels.CONFIG, config));
    }

    private static Map<String, String> labels(SimPod sim, SimRole role, String roleset) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(SpecLabels.MODEL_NAME, TestCluster.MODEL);
        labels.put(SpecLabels.PORT, Integer.toString(sim.port()));
        labels.put(SpecLabels.ENGINE, "vllm");
        if (role != SimRole.COMBINED) {
            labels.put(SpecLabels.ROLE_NAME, role == SimRole.PREFILL ? SpecLabels.ROLE_PREFILL : SpecLabels.ROLE_DECODE);
        }
        if (roleset != null) {
            labels.put(SpecLabels.ROLESET_NAME, roleset);
        }
        return labels;
    }

    private String servedBy() throws Exception {
        var response = cluster.post("/v1/chat/completions", TestCluster.chat("x", 1, false), "routing-strategy", "pd");
        return response.statusCode() + " " + response.headers().firstValue("target-pod").orElse("-");
    }

    private void follows(String expected) {
        await().atMost(FOLLOW).pollInterval(Duration.ofMillis(20)).until(this::servedBy, expected::equals);
    }

    /** A gauge's value as /metrics shows it. */
    private double gauge(String name) throws Exception {
        for (String line : cluster.get("/metrics").body().split("\n")) {
            if (line.startsWith(name + " ")) {
                return Double.parseDouble(line.substring(name.length() + 1).trim());
            }
        }
        throw new AssertionError(name + " not on /metrics");
    }

    private static Pod ready(Pod pod, boolean ready) {
        for (PodCondition condition : pod.getStatus().getConditions()) {
            if ("Ready".equals(condition.getType())) {
                condition.setStatus(ready ? "True" : "False");
            }
        }
        return pod;
    }

    @Test
    void podEvents_routingFollowsWithinOneSecond() throws Exception {
        cluster = new TestCluster();
        kube = new MockKubernetes(cluster.vertx);
        kube.create(podObject("standard-0", SimRole.COMBINED, null, STANDARD));
        start();
        assertThat(servedBy()).isEqualTo("200 standard-0");

        // Added: a complete roleset appears and takes PD traffic from the standard pod.
        kube.create(podObject("prefill-a", SimRole.PREFILL, "rs-a", null));
        kube.create(podObject("decode-a", SimRole.DECODE, "rs-a", null));
        follows("200 decode-a");

        // Relabelled: decode-a moves to another roleset, rs-a is incomplete, the standard pod takes over; and back.
        kube.edit(NS, "decode-a", p -> { p.getMetadata().getLabels().put(SpecLabels.ROLESET_NAME, "rs-other"); return p; });
        follows("200 standard-0");
        kube.edit(NS, "decode-a", p -> { p.getMetadata().getLabels().put(SpecLabels.ROLESET_NAME, "rs-a"); return p; });
        follows("200 decode-a");

        // Re-annotated: the prefill pod now serves long prompts only, so the short prompt falls back; and back.
        kube.edit(NS, "prefill-a", p -> { p.getMetadata().getAnnotations().put(SpecLabels.CONFIG, LONG_PROMPTS_ONLY); return p; });
        follows("200 standard-0");
        kube.edit(NS, "prefill-a", p -> { p.getMetadata().getAnnotations().remove(SpecLabels.CONFIG); return p; });
        follows("200 decode-a");

        // Turned unready, then ready again.
        kube.admin().pods().inNamespace(NS).withName("decode-a").editStatus(p -> ready(p, false));
        follows("200 standard-0");
        kube.admin().pods().inNamespace(NS).withName("decode-a").editStatus(p -> ready(p, true));
        follows("200 decode-a");

        // Being deleted: a finalizer holds the object while deletionTimestamp is set; then it is gone for good.
        kube.edit(NS, "decode-a", p -> { p.getMetadata().getFinalizers().add("example.com/hold"); return p; });
        kube.delete(NS, "decode-a");
        follows("200 standard-0");
        kube.edit(NS, "decode-a", p -> { p.getMetadata().getFinalizers().clear(); return p; });
        await().atMost(FOLLOW).until(() -> kube.admin().pods().inNamespace(NS).withName("decode-a").get() == null);

        // Deleted: without the standard pod nothing can serve.
        kube.delete(NS, "standard-0");
        await().atMost(FOLLOW).pollInterval(Duration.ofMillis(20)).until(this::servedBy, s -> s.startsWith("503"));
    }

    @Test
    void apiServerOutage_lastKnownViewKept_thenResynced() throws Exception {
        cluster = new TestCluster();
        kube = new MockKubernetes(cluster.vertx);
        kube.create(podObject("prefill-a", SimRole.PREFILL, "rs-a", null));
        kube.create(podObject("decode-a", SimRole.DECODE, "rs-a", null));
        Pod standard = podObject("standard-0", SimRole.COMBINED, null, STANDARD);
        start();
        assertThat(servedBy()).isEqualTo("200 decode-a");
        await().atMost(FOLLOW).until(() -> gauge(GatewayMetrics.DISCOVERY_CONNECTED) == 1.0);

        kube.proxy().cut();
        await().atMost(Duration.ofSeconds(5)).until(() -> gauge(GatewayMetrics.DISCOVERY_CONNECTED) == 0.0);
        // Changes the gateway cannot see yet: decode-a leaves its roleset and a standard pod appears.
        kube.edit(NS, "decode-a", p -> { p.getMetadata().getLabels().put(SpecLabels.ROLESET_NAME, "rs-other"); return p; });
        kube.create(standard);
        // Meanwhile the last known view keeps serving, and the replica stays ready.
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(this::servedBy, "200 decode-a"::equals);
        assertThat(cluster.get("/readyz").statusCode()).isEqualTo(200);
        assertThat(gauge(GatewayMetrics.DISCOVERY_PODS)).isEqualTo(2.0);

        kube.proxy().restore();
        await().atMost(Duration.ofSeconds(10)).until(() -> gauge(GatewayMetrics.DISCOVERY_CONNECTED) == 1.0);
        follows("200 standard-0");
        assertThat(gauge(GatewayMetrics.DISCOVERY_PODS)).isEqualTo(3.0);
    }

    @Test
    void samePodNameInTwoNamespaces_separateLedgers() throws Exception {
        cluster = new TestCluster();
        kube = new MockKubernetes(cluster.vertx);
        // Slow enough that a 1000-token stream stays open for a second or more while the short requests run.
        Map<String, SimPod> sims = new LinkedHashMap<>();
        for (String namespace : List.of("team-a", "team-b", "team-c")) {
            SimPod sim = cluster.sim(namespace + "-standard-0", SimRole.COMBINED, FaultConfig.none(), SLOW_TIME_SCALE);
            sims.put(namespace, sim);
            kube.create(MockKubernetes.pod(namespace, "standard-0", sim, labels(sim, SimRole.COMBINED, null),
                    Map.of(SpecLabels.CONFIG, STANDARD)));
        }
        // team-c is not watched: its pod must never see a request.
        start(List.of("team-a", "team-b"), Map.of(SpecEnv.ROUTING_ALGORITHM, SpecStrategies.LEAST_REQUEST));
        assertThat(gauge(GatewayMetrics.DISCOVERY_PODS)).isEqualTo(2.0);

        try (RawStream stream = new RawStream(cluster.gateway().port(), "/v1/chat/completions",
                TestCluster.chat("x", 1000, true))) {
            await().atMost(Duration.ofSeconds(5)).until(() -> stream.contentEvents() > 0);
            String busy = sims.get("team-a").openStreams() == 1 ? "team-a" : "team-b";
            String idle = busy.equals("team-a") ? "team-b" : "team-a";
            assertThat(sims.get(busy).openStreams()).isEqualTo(1);
            // The ledger counts the stream against busy/standard-0 only, not against every pod named standard-0.
            var ledger = cluster.gateway().routing().session().requests();
            var pods = cluster.discovery().current().model(TestCluster.MODEL).pods();
            for (var pod : pods) {
                assertThat(ledger.runningRequests(pod)).as(pod.id()).isEqualTo(pod.namespace().equals(busy) ? 1 : 0);
            }
            // So least-request sends every short request to the other namespace's pod.
            int idleBefore = TestCluster.inference(sims.get(idle)).size();
            int busyBefore = TestCluster.inference(sims.get(busy)).size();
            for (int i = 0; i < 6; i++) {
                assertThat(cluster.post("/v1/chat/completions", TestCluster.chat("y", 1, false)).statusCode()).isEqualTo(200);
            }
            assertThat(stream.poll()).doesNotContain("[DONE]");
            assertThat(TestCluster.inference(sims.get(idle)).size() - idleBefore).isEqualTo(6);
            assertThat(TestCluster.inference(sims.get(busy)).size() - busyBefore).isZero();
            await().atMost(Duration.ofSeconds(20)).until(() -> stream.poll().contains("[DONE]"));
        }
        assertThat(TestCluster.inference(sims.get("team-c"))).isEmpty();
    }

    @Test
    void apiServerUnreachableAtStart_notReadyUntilFirstList() throws Exception {
        cluster = new TestCluster();
        kube = new MockKubernetes(cluster.vertx);
        kube.create(podObject("standard-0", SimRole.COMBINED, null, STANDARD));
        kube.proxy().cut();
        KubernetesDiscovery discovery = new KubernetesDiscovery(kube.gatewayClient(), List.of()).start();
        cluster.startGateway(Map.of(SpecEnv.PROMPT_LENGTH_BUCKETING, "true"), discovery);
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2))
                .until(() -> cluster.get("/readyz").statusCode() == 503);
        assertThat(cluster.post("/v1/chat/completions", TestCluster.chat("x", 1, false)).statusCode()).isEqualTo(404);

        kube.proxy().restore();
        // fabric8 retries the first list with an exponential backoff, so the wait grows with the outage.
        await().atMost(Duration.ofSeconds(15)).until(() -> cluster.get("/readyz").statusCode() == 200);
        assertThat(servedBy()).isEqualTo("200 standard-0");
    }

    @Test
    void podBeingDeleted_itsStreamFinishes_newRequestsGoElsewhere() throws Exception {
        cluster = new TestCluster();
        kube = new MockKubernetes(cluster.vertx);
        SimPod old = cluster.sim("standard-old", SimRole.COMBINED, FaultConfig.none(), SLOW_TIME_SCALE);
        kube.create(MockKubernetes.pod(NS, "standard-old", old, labels(old, SimRole.COMBINED, null), Map.of()));
        start(List.of(), Map.of());
        try (RawStream stream = new RawStream(cluster.gateway().port(), "/v1/chat/completions",
                TestCluster.chat("x", 1000, true))) {
            await().atMost(Duration.ofSeconds(5)).until(() -> stream.contentEvents() > 0);

            // A rollout: the new pod appears, the old one is being deleted (a finalizer keeps the object visible).
            SimPod fresh = cluster.sim("standard-new", SimRole.COMBINED, FaultConfig.none());
            kube.create(MockKubernetes.pod(NS, "standard-new", fresh, labels(fresh, SimRole.COMBINED, null), Map.of()));
            kube.edit(NS, "standard-old", p -> { p.getMetadata().getFinalizers().add("example.com/hold"); return p; });
            kube.delete(NS, "standard-old");
            await().atMost(FOLLOW).pollInterval(Duration.ofMillis(20)).until(() -> cluster
                    .post("/v1/chat/completions", TestCluster.chat("y", 1, false)).headers().firstValue("target-pod")
                    .orElse("-"), "standard-new"::equals);
            assertThat(stream.poll()).as("the old pod's stream is still running").doesNotContain("[DONE]");
            for (int i = 0; i < 3; i++) {
                assertThat(cluster.post("/v1/chat/completions", TestCluster.chat("y", 1, false)).headers()
                        .firstValue("target-pod")).contains("standard-new");
            }

            await().atMost(Duration.ofSeconds(20)).until(() -> stream.poll().contains("data: [DONE]"));
            assertThat(old.streamsCancelled()).isZero();
        }
    }
}
