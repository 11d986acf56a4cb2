package io.pdgateway.server.it;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.pdgateway.sim.SimPod;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The fabric8 mock API server in CRUD mode, reached by the gateway through a {@link CuttableProxy} so a test can
 * take the API away and bring it back. {@link #admin()} talks to the mock directly, as kubectl would.
 */
final class MockKubernetes implements AutoCloseable {
    /** Watch reconnects every 100 ms instead of fabric8's default second, so outage tests recover quickly. */
    private static final int WATCH_RECONNECT_MS = 100;

    private final KubernetesMockServer server;
    private final KubernetesClient admin;
    private final CuttableProxy proxy;

    MockKubernetes(Vertx vertx) {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init(InetAddress.getLoopbackAddress(), 0);
        admin = server.createClient();
        proxy = new CuttableProxy(vertx, "127.0.0.1", server.getPort());
    }

    KubernetesClient admin() {
        return admin;
    }

    /** A new client for the gateway, through the proxy; its owner closes it. */
    KubernetesClient gatewayClient() {
        Config config = new ConfigBuilder(Config.empty()).withMasterUrl("http://127.0.0.1:" + proxy.port())
                .withNamespace("default").withWatchReconnectInterval(WATCH_RECONNECT_MS)
                .withRequestRetryBackoffInterval(WATCH_RECONNECT_MS).build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    /** A kubeconfig file for this API server, as kubectl and fabric8's default configuration read it. */
    Path writeKubeconfig(Path dir) throws IOException {
        String kubeconfig = """
                apiVersion: v1
                kind: Config
                clusters:
                  - name: mock
                    cluster:
                      server: http://127.0.0.1:%d
                users:
                  - name: mock
                    user:
                      token: not-checked-by-the-mock
                contexts:
                  - name: mock
                    context:
                      cluster: mock
                      user: mock
                current-context: mock
                """.formatted(proxy.port());
        return Files.writeString(dir.resolve("kubeconfig"), kubeconfig);
    }

    CuttableProxy proxy() {
        return proxy;
    }

    /** A running, Ready pod object whose podIP is the simulated pod's address. */
    static Pod pod(String namespace, String name, SimPod sim, Map<String, String> labels, Map<String, String> annotations) {
        return new PodBuilder().withNewMetadata().withNamespace(namespace).withName(name).withLabels(labels)
                .withAnnotations(annotations).endMetadata()
                .withNewStatus().withPhase("Running").withPodIP(sim.host())
                .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus()
                .build();
    }

    Pod create(Pod pod) {
        return admin.pods().inNamespace(pod.getMetadata().getNamespace()).resource(pod).create();
    }

    /** Applies a change to a pod object as a controller would (metadata through update, status through its subresource). */
    Pod edit(String namespace, String name, UnaryOperator<Pod> change) {
        return admin.pods().inNamespace(namespace).withName(name).edit(change);
    }

    void delete(String namespace, String name) {
        admin.pods().inNamespace(namespace).withName(name).delete();
    }

    @Override
    public void close() {
        proxy.close();
        admin.close();
        server.destroy();
    }
}
