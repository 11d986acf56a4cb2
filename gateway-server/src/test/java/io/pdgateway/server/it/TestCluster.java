package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.spec.SpecLabels;
import io.pdgateway.server.GatewayServer;
import io.pdgateway.sim.cluster.PodManifest;
import io.pdgateway.server.discovery.PodFileDiscovery;
import io.pdgateway.server.discovery.PodSource;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A gateway, simulated pods of one engine on their own loopback addresses and the pod file between them, for
 * integration tests. {@link #close()} first checks the invariants every test must leave behind: ledger at zero,
 * nothing in flight at the gateway (requests and prefill legs), no open stream at any pod.
 */
final class TestCluster implements AutoCloseable {
    /** Simulated engines run 200x faster than an H100 so a 16-token stream takes milliseconds. */
    static final double TIME_SCALE = 0.005;
    static final String MODEL = "my-model";
    /** A standard pod's config annotation: combined:true over every prompt length. */
    private static final String STANDARD_CONFIG =
            "{\"profiles\":{\"default\":{\"routingConfig\":{\"combined\":true}}}}";

    private static int nextHost = 2;

    final Vertx vertx = Vertx.vertx();
    final Path dir;
    final Path podFile;
    private final Map<String, SimPod> sims = new LinkedHashMap<>();
    private final Map<String, PodManifest.Entry> entries = new LinkedHashMap<>();
    private final String engine;
    private UnaryOperator<SimConfig.Builder> simOptions = UnaryOperator.identity();
    private GatewayServer gateway;
    private PodSource discovery;
    private final java.util.List<GatewayServer> replicas = new ArrayList<>();
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    TestCluster() throws IOException {
        this(SimConfig.DEFAULT_ENGINE);
    }

    /** A cluster whose pods simulate {@code engine} (vllm, sglang, trtllm) and carry its model.aibrix.ai/engine label. */
    TestCluster(String engine) throws IOException {
        this.engine = engine;
        dir = Files.createTempDirectory("pd-gateway-it");
        podFile = dir.resolve("pods.yaml");
    }

    /** Options for the pods started from now on (e.g. TensorRT-LLM's C++ transceiver). */
    TestCluster withSimOptions(UnaryOperator<SimConfig.Builder> options) {
        this.simOptions = options;
        return this;
    }

    /** A fresh loopback address per pod across the whole test JVM, so pods never share an address. */
    private static synchronized String nextLoopback() {
        int n = nextHost++;
        return "127.0." + (n / 250) + "." + (2 + n % 250);
    }

    SimPod sim(String name, SimRole role, FaultConfig faults) {
        return sim(name, role, faults, TIME_SCALE);
    }

    /** A simulated pod at its own speed: 1.0 is real H100 time, for streams that must stay open for a while. */
    SimPod sim(String name, SimRole role, FaultConfig faults, double timeScale) {
        return sim(name, role, faults, timeScale, engine, MODEL);
    }

    private SimPod sim(String name, SimRole role, FaultConfig faults, double timeScale, String podEngine,
            String model) {
        // Bootstrap port 0: SGLang prefills get a free port each, which their annotation then names.
        SimConfig config = simOptions.apply(SimConfig.builder().engine(podEngine).role(role).host(nextLoopback())
                .modelName(model).timeScale(timeScale).seed(name.hashCode()).faults(faults).bootstrapPort(0)).build();
        SimPod pod = SimPod.start(vertx, config).await();
        sims.put(name, pod);
        return pod;
    }

    /** Starts a simulated pod and lists it in the pod file with the given role and roleset labels. */
    TestCluster pod(String name, SimRole role, String roleset, Map<String, String> extraLabels, String configAnnotation) {
        return pod(name, role, roleset, extraLabels, configAnnotation, TIME_SCALE);
    }

    /** As {@link #pod(String, SimRole, String, Map, String)}, at its own speed (1.0: real H100 time). */
    TestCluster pod(String name, SimRole role, String roleset, Map<String, String> extraLabels, String configAnnotation,
            double timeScale) {
        return pod(name, role, roleset, extraLabels, configAnnotation, timeScale, engine, MODEL);
    }

    private TestCluster pod(String name, SimRole role, String roleset, Map<String, String> extraLabels,
            String configAnnotation, double timeScale, String podEngine, String model) {
        SimPod pod = sim(name, role, FaultConfig.none(), timeScale, podEngine, model);
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(SpecLabels.MODEL_NAME, model);
        labels.put(SpecLabels.PORT, Integer.toString(pod.port()));
        labels.put(SpecLabels.ENGINE, podEngine);
        if (role != SimRole.COMBINED) {
            labels.put(SpecLabels.ROLE_NAME, role == SimRole.PREFILL ? "prefill" : "decode");
        }
        if (roleset != null) {
            labels.put(SpecLabels.ROLESET_NAME, roleset);
        }
        labels.putAll(extraLabels);
        Map<String, String> annotations = new LinkedHashMap<>();
        if (configAnnotation != null) {
            annotations.put(SpecLabels.CONFIG, configAnnotation);
        }
        if (pod.bootstrapPort() > 0) {
            annotations.put(SpecLabels.SGLANG_BOOTSTRAP_PORT, Integer.toString(pod.bootstrapPort()));
        }
        entries.put(name, new PodManifest.Entry("default", name, labels, annotations, pod.host(), true));
        return this;
    }

    TestCluster prefill(String name, String roleset) {
        return pod(name, SimRole.PREFILL, roleset, Map.of(), null);
    }

    TestCluster decode(String name, String roleset) {
        return pod(name, SimRole.DECODE, roleset, Map.of(), null);
    }

    /** A standard pod: combined:true over every prompt length. */
    TestCluster standard(String name) {
        return standard(name, TIME_SCALE);
    }

    /** A standard pod at its own speed (1.0: real H100 time, for answers that must take a while). */
    TestCluster standard(String name, double timeScale) {
        return pod(name, SimRole.COMBINED, null, Map.of(), STANDARD_CONFIG, timeScale);
    }

    /**
     * A standard pod of another engine serving a model of its own: its engine's series reach the gateway's /metrics
     * through the scrapes while the routing of {@link #MODEL} stays as the other pods make it.
     */
    TestCluster standardOfItsOwnModel(String name, String podEngine, String model) {
        return pod(name, SimRole.COMBINED, null, Map.of(), STANDARD_CONFIG, TIME_SCALE, podEngine, model);
    }

    /** Stops a pod's server (its pod-file entry stays, as when a process dies under a live pod object). */
    void stopPod(String name) {
        sims.remove(name).close().await();
    }

    /** What the pod received on its OpenAI endpoints (the gateway's own /metrics scrapes left out). */
    java.util.List<io.pdgateway.sim.RecordedRequest> inferenceRequests(String name) {
        return inference(sims.get(name));
    }

    /** What a pod received on its OpenAI endpoints: the gateway scrapes /metrics all the time, so leave those out. */
    static java.util.List<io.pdgateway.sim.RecordedRequest> inference(SimPod pod) {
        return pod.recordedRequests().stream().filter(r -> r.path().startsWith("/v1/")).toList();
    }

    /**
     * Waits until the named pods are idle and the gateway has scraped each of them twice since: its routing then sees
     * them idle (the first of those scrapes may still have been on its way back when the pod counted it).
     */
    void awaitIdleScrapes(String... names) {
        for (String name : names) {
            SimPod pod = sims.get(name);
            await().atMost(10, TimeUnit.SECONDS).until(() -> pod.openStreams() == 0);
            long before = scrapes(pod);
            await().atMost(10, TimeUnit.SECONDS).until(() -> scrapes(pod) >= before + 2);
        }
    }

    private static long scrapes(SimPod pod) {
        return pod.recordedRequests().stream().filter(r -> r.path().equals("/metrics")).count();
    }

    SimPod simPod(String name) {
        return sims.get(name);
    }

    PodManifest.Entry entry(String name) {
        return entries.get(name);
    }

    void replaceEntry(String name, PodManifest.Entry entry) {
        if (entry == null) {
            entries.remove(name);
        } else {
            entries.put(name, entry);
        }
        writePodFile();
    }

    void writePodFile() {
        PodManifest.write(podFile, new ArrayList<>(entries.values()));
    }

    TestCluster startGateway(Map<String, String> env) {
        writePodFile();
        PodFileDiscovery file = new PodFileDiscovery(vertx, podFile);
        file.start();
        return startGateway(env, file);
    }

    /** The gateway on another pod source (Kubernetes); the source is closed with the gateway. */
    TestCluster startGateway(Map<String, String> env, PodSource source) {
        return startGateway(env, source, io.pdgateway.server.trace.Tracing.off());
    }

    /** The gateway on the pod file, its spans going to {@code tracing}. */
    TestCluster startGateway(Map<String, String> env, io.pdgateway.server.trace.Tracing tracing) {
        writePodFile();
        PodFileDiscovery file = new PodFileDiscovery(vertx, podFile);
        file.start();
        return startGateway(env, file, tracing);
    }

    private TestCluster startGateway(Map<String, String> env, PodSource source,
            io.pdgateway.server.trace.Tracing tracing) {
        discovery = source;
        gateway = GatewayServer.start(vertx, discovery, GatewaySettings.fromEnv(new HashMap<>(env)), "127.0.0.1", 0, 1234,
                tracing).await();
        return this;
    }

    /** The gateway on the pod file, with the KV-event and model-tokenizer settings read from {@code env} as serve does. */
    TestCluster startGatewayWithKvEvents(Map<String, String> env) {
        writePodFile();
        PodFileDiscovery file = new PodFileDiscovery(vertx, podFile);
        file.start();
        discovery = file;
        GatewaySettings settings = GatewaySettings.fromEnv(new HashMap<>(env));
        gateway = GatewayServer.start(vertx, discovery, settings,
                io.pdgateway.server.kvevents.KvEventsSettings.fromEnv(env),
                io.pdgateway.server.routing.ModelTokenizers.fromEnv(env, settings.routing().prefixCacheTokenizer()),
                "127.0.0.1", 0, 1234, io.pdgateway.server.trace.Tracing.off()).await();
        return this;
    }

    /** Adds annotations to a pod's entry (written with the pod file). */
    TestCluster annotate(String name, Map<String, String> annotations) {
        PodManifest.Entry e = entries.get(name);
        Map<String, String> merged = new LinkedHashMap<>(e.annotations());
        merged.putAll(annotations);
        entries.put(name, new PodManifest.Entry(e.namespace(), e.name(), e.labels(), merged, e.podIp(), e.ready()));
        return this;
    }

    /** Another gateway process's worth of server on the same pod file (its own discovery, ledgers and port). */
    GatewayServer startReplica(Map<String, String> env) {
        PodFileDiscovery own = new PodFileDiscovery(vertx, podFile);
        own.start();
        GatewayServer replica = GatewayServer.start(vertx, own, GatewaySettings.fromEnv(env), "127.0.0.1", 0, 5678).await();
        replicas.add(replica);
        return replica;
    }

    GatewayServer gateway() {
        return gateway;
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + gateway.port() + path);
    }

    HttpResponse<String> post(String path, String body, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A simulated pod's own metrics exposition, read past the gateway ({@code /metrics}; TensorRT-LLM's elsewhere). */
    String podExposition(String name, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(sims.get(name).baseUrl() + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The gateway's unlabelled series {@code name} on /metrics (e.g. pd_prefix_cache_model_blocks), NaN when absent. */
    double metric(String name) throws Exception {
        return unlabelled(get("/metrics").body(), name);
    }

    /** The blocks the gateway's prefix-cache model holds ({@code pd_prefix_cache_model_blocks}), 0 before it shows. */
    long prefixCacheModelBlocks() throws Exception {
        double blocks = metric("pd_prefix_cache_model_blocks");
        return Double.isNaN(blocks) ? 0 : (long) blocks;
    }

    /** An unlabelled series' value in a Prometheus exposition, NaN when absent. */
    static double unlabelled(String exposition, String name) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + " ([0-9.eE+-]+)$").matcher(exposition);
        return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
    }

    /** A raw HTTP/1.1 chat POST whose body is sent as one chunk under the given Transfer-Encoding. */
    static String chunkedChatPost(String transferEncoding, String body) {
        return "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: " + transferEncoding + "\r\n\r\n" + Integer.toHexString(body.length()) + "\r\n"
                + body + "\r\n0\r\n\r\n";
    }

    static String chat(String content, int maxTokens, boolean stream) {
        return "{\"model\":\"" + MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":\"" + content + "\"}],"
                + "\"max_tokens\":" + maxTokens + ",\"stream\":" + stream + "}";
    }

    /** Every request has ended: the ledger, the gateway's in-flight gauge and every pod's open streams are at zero. */
    void assertQuiescent() {
        await().atMost(10, TimeUnit.SECONDS).untilAsserted(() -> {
            assertThat(gateway.routing().session().requests().outstanding()).as("ledger outstanding").isZero();
            assertThat(gateway.routing().session().tokens().outstandingTokens()).as("token ledger outstanding").isZero();
            assertThat(gateway.metrics().inFlight()).as("gateway in-flight").isZero();
            assertThat(gateway.metrics().prefillOutstanding()).as("prefill legs outstanding").isZero();
            for (String pod : gateway.upstreams().gates().podIds()) {
                assertThat(gateway.upstreams().gates().inUse(pod)).as("connection slots in use at " + pod).isZero();
                assertThat(gateway.upstreams().gates().waiting(pod)).as("requests waiting at " + pod).isZero();
            }
            for (GatewayServer replica : replicas) {
                assertThat(replica.routing().session().requests().outstanding()).as("replica ledger outstanding").isZero();
                assertThat(replica.routing().session().tokens().outstandingTokens()).as("replica token ledger").isZero();
                assertThat(replica.metrics().inFlight()).as("replica in-flight").isZero();
            }
            for (Map.Entry<String, SimPod> sim : sims.entrySet()) {
                assertThat(sim.getValue().openStreams()).as("open streams at " + sim.getKey()).isZero();
            }
        });
    }

    /** The gateway's pod source. */
    PodSource discovery() {
        return discovery;
    }

    @Override
    public void close() {
        try {
            if (gateway != null) {
                assertQuiescent();
            }
        } finally {
            if (gateway != null) {
                gateway.close().await();
            }
            replicas.forEach(r -> r.close().await());
            sims.values().forEach(s -> s.close().await());
            vertx.close().await();
        }
    }
}
