package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.core.spec.SpecLabels;
import io.pdgateway.server.metrics.GatewayMetrics;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code pd-gateway serve --kubernetes --namespace NS} as a user runs it: a real process that finds the API server
 * through $KUBECONFIG (fabric8's default configuration), lists the namespace's pods and routes to them.
 */
class ServeKubernetesIT {
    private static final String NAMESPACE = "llm";
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

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return cluster.http.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void serveKubernetes_withKubeconfig_routesToTheNamespacesPods() throws Exception {
        cluster = new TestCluster();
        kube = new MockKubernetes(cluster.vertx);
        SimPod sim = cluster.sim("standard-0", SimRole.COMBINED, FaultConfig.none());
        kube.create(MockKubernetes.pod(NAMESPACE, "standard-0", sim, Map.of(SpecLabels.MODEL_NAME, TestCluster.MODEL,
                SpecLabels.PORT, Integer.toString(sim.port())), Map.of()));
        // Same model in a namespace the gateway does not watch: never a target.
        SimPod elsewhere = cluster.sim("other-0", SimRole.COMBINED, FaultConfig.none());
        kube.create(MockKubernetes.pod("other", "other-0", elsewhere, Map.of(SpecLabels.MODEL_NAME, TestCluster.MODEL,
                SpecLabels.PORT, Integer.toString(elsewhere.port())), Map.of()));

        try (GatewayProcess gateway = GatewayProcess.serve(Map.of("KUBECONFIG",
                kube.writeKubeconfig(cluster.dir).toString()), List.of("--kubernetes", "--namespace", NAMESPACE))) {
            String base = "http://127.0.0.1:" + gateway.port();
            await().atMost(Duration.ofSeconds(15))
                    .until(() -> send(HttpRequest.newBuilder(URI.create(base + "/readyz"))).statusCode() == 200);
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> response = send(HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(TestCluster.chat("x", 2, false))));
                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(response.headers().firstValue("target-pod")).contains("standard-0");
            }
            // Ready means the pods were listed; "connected" means every informer's watch is open too, which can
            // follow the list by a moment (seen 0 once in a full build right after three requests were served).
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                    send(HttpRequest.newBuilder(URI.create(base + "/metrics"))).body())
                    .contains(GatewayMetrics.DISCOVERY_CONNECTED + " 1.0").contains(GatewayMetrics.DISCOVERY_PODS + " 1.0"));
            assertThat(gateway.output()).contains("watching pods labelled model.aibrix.ai/name in namespaces [llm]");

            gateway.terminate();
            assertThat(gateway.waitForExit(Duration.ofSeconds(10))).as("exited").isTrue();
        }
        assertThat(TestCluster.inference(elsewhere)).isEmpty();
    }
}
