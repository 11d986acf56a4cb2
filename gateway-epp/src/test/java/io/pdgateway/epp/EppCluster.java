package io.pdgateway.epp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode;
import io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.spec.SpecLabels;
import io.pdgateway.server.GatewayServer;
import io.pdgateway.server.discovery.PodFileDiscovery;
import io.pdgateway.server.kvevents.KvEventsSettings;
import io.pdgateway.server.routing.ModelTokenizers;
import io.pdgateway.server.trace.Tracing;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.RecordedRequest;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.TimingProfile;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import io.pdgateway.sim.cluster.PodManifest;
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
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Simulated pods of one engine on their own loopback addresses, their pod file, a gateway with the endpoint picker in
 * front of them, a gRPC channel to the picker, and the HTTP call Envoy makes to the picked pod. {@link #close()} first
 * checks what every test must leave behind: every ledger at zero, nothing in flight, no open stream at any pod.
 */
final class EppCluster implements AutoCloseable {
    /** Simulated engines 200x faster than an H100, as the server's integration tests run them. */
    static final double TIME_SCALE = 0.005;
    static final String MODEL = "my-model";
    static final String CHAT = "/v1/chat/completions";
    /** The picker's tests get loopback addresses of their own (127.1.x.y): never a pod of another test JVM's. */
    private static int nextHost = 2;

    final Vertx vertx = Vertx.vertx();
    private final Path dir;
    final Path podFile;
    private final String engine;
    private final Map<String, SimPod> sims = new LinkedHashMap<>();
    private final Map<String, PodManifest.Entry> entries = new LinkedHashMap<>();
    private final List<GatewayServer> gateways = new ArrayList<>();
    private TimingProfile timing = TimingProfile.llama3_8b_h100();
    private GatewayServer gateway;
    private EppServer picker;
    private ManagedChannel channel;
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** Pods started from now on report a KV cache of this many tokens. */
    EppCluster withKvCapacityTokens(int tokens) {
        timing = timing.withKvCapacityTokens(tokens);
        return this;
    }

    /** The blocks the picker's prefix-cache model has for the pod. */
    long cacheBlocks(String pod) {
        return gateways.get(0).routing().session().caches().model(MODEL).blocks("default/" + pod);
    }

    EppCluster(String engine) throws IOException {
        this.engine = engine;
        this.dir = Files.createTempDirectory("pd-gateway-epp");
        this.podFile = dir.resolve("pods.yaml");
    }

    private static synchronized String nextLoopback() {
        int n = nextHost++;
        return "127.1." + (n / 250) + "." + (2 + n % 250);
    }

    EppCluster pod(String name, SimRole role, String roleset, String configAnnotation, FaultConfig faults) {
        SimConfig config = SimConfig.builder().engine(engine).role(role).host(nextLoopback()).modelName(MODEL)
                .timing(timing).timeScale(TIME_SCALE).seed(name.hashCode()).faults(faults).bootstrapPort(0).build();
        SimPod pod = SimPod.start(vertx, config).await();
        sims.put(name, pod);
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(SpecLabels.MODEL_NAME, MODEL);
        labels.put(SpecLabels.PORT, Integer.toString(pod.port()));
        labels.put(SpecLabels.ENGINE, engine);
        if (role != SimRole.COMBINED) {
            labels.put(SpecLabels.ROLE_NAME, role == SimRole.PREFILL ? "prefill" : "decode");
        }
        if (roleset != null) {
            labels.put(SpecLabels.ROLESET_NAME, roleset);
        }
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

    EppCluster prefill(String name, String roleset) {
        return pod(name, SimRole.PREFILL, roleset, null, FaultConfig.none());
    }

    EppCluster decode(String name, String roleset) {
        return pod(name, SimRole.DECODE, roleset, null, FaultConfig.none());
    }

    EppCluster standard(String name) {
        return pod(name, SimRole.COMBINED, null, "{\"profiles\":{\"default\":{\"routingConfig\":{\"combined\":true}}}}",
                FaultConfig.none());
    }

    /** A gateway over the pod file, as {@code serve} starts one (no picker). */
    GatewayServer serve(Map<String, String> env, long seed, Tracing tracing) {
        PodManifest.write(podFile, new ArrayList<>(entries.values()));
        PodFileDiscovery discovery = new PodFileDiscovery(vertx, podFile);
        discovery.start();
        GatewaySettings settings = GatewaySettings.fromEnv(new HashMap<>(env));
        GatewayServer started = GatewayServer.start(vertx, discovery, settings, KvEventsSettings.defaults(),
                ModelTokenizers.fromEnv(env, settings.routing().prefixCacheTokenizer()), "127.0.0.1", 0, seed, tracing)
                .await();
        gateways.add(started);
        await().atMost(10, TimeUnit.SECONDS).until(discovery::ready);
        return started;
    }

    /** The gateway with the endpoint picker beside it, as {@code epp} starts them. */
    EppCluster startPicker(Map<String, String> env, long seed, Tracing tracing) {
        gateway = serve(env, seed, tracing);
        picker = EppServer.start(gateway, "127.0.0.1", 0, BodyMode.BUFFERED);
        channel = NettyChannelBuilder.forAddress("127.0.0.1", picker.port()).usePlaintext().build();
        return this;
    }

    EppCluster startPicker(Map<String, String> env) {
        return startPicker(env, 1234, Tracing.off());
    }

    ManagedChannel channel() {
        return channel;
    }

    GatewayServer gateway() {
        return gateway;
    }

    EnvoyStream envoy(ProcessingMode.BodySendMode requestMode, ProcessingMode.BodySendMode responseMode) {
        return new EnvoyStream(channel, requestMode, responseMode);
    }

    EnvoyStream buffered() {
        return envoy(ProcessingMode.BodySendMode.BUFFERED, ProcessingMode.BodySendMode.STREAMED);
    }

    SimPod sim(String name) {
        return sims.get(name);
    }

    String address(String name) {
        return sims.get(name).host() + ":" + sims.get(name).port();
    }

    List<RecordedRequest> inference(String name) {
        return sims.get(name).recordedRequests().stream().filter(r -> r.path().startsWith("/v1/")).toList();
    }

    /**
     * What the picker told Envoy: the endpoint, the headers it set and the body to send upstream. From a BUFFERED
     * pick (one body answer) or a FULL_DUPLEX_STREAMED one (headers answer, then the body as a streamed chunk).
     */
    record Pick(String endpoint, String metadataEndpoint, Map<String, String> headers, byte[] body, boolean bodyChanged) {}

    /**
     * A BUFFERED stream's request as Envoy sends it: the headers (let through), then the whole body; the pick that
     * answers the body.
     */
    static Pick askBuffered(EnvoyStream envoy, String path, Map<String, String> extra, List<String> subset,
            byte[] body) throws InterruptedException {
        envoy.requestHeaders(path, extra, subset);
        envoy.next();
        envoy.requestBody(body, true);
        return bufferedPick(envoy.next(), body);
    }

    /** {@link #askBuffered(EnvoyStream, String, Map, List, byte[])} for a chat request with no extra header. */
    static Pick askBuffered(EnvoyStream envoy, byte[] body) throws InterruptedException {
        return askBuffered(envoy, CHAT, Map.of(), null, body);
    }

    static Pick bufferedPick(ProcessingResponse answer, byte[] original) {
        assertThat(answer.hasRequestBody()).as("a BUFFERED pick answers the body: " + answer).isTrue();
        CommonResponse common = answer.getRequestBody().getResponse();
        boolean changed = common.hasBodyMutation();
        return pick(common, answer, changed ? common.getBodyMutation().getBody().toByteArray() : original, changed);
    }

    static Pick streamedPick(ProcessingResponse head, ProcessingResponse body) {
        assertThat(head.hasRequestHeaders()).as("a FULL_DUPLEX_STREAMED pick answers the headers first: " + head)
                .isTrue();
        assertThat(body.hasRequestBody()).isTrue();
        var streamed = body.getRequestBody().getResponse().getBodyMutation().getStreamedResponse();
        assertThat(streamed.getEndOfStream()).isTrue();
        return pick(head.getRequestHeaders().getResponse(), head, streamed.getBody().toByteArray(), true);
    }

    private static Pick pick(CommonResponse common, ProcessingResponse answer, byte[] body, boolean changed) {
        assertThat(common.getClearRouteCache()).as("the route is recomputed with the destination").isTrue();
        Map<String, String> headers = headers(common.getHeaderMutation().getSetHeadersList());
        String metadata = answer.getDynamicMetadata().getFieldsOrThrow(EppProtocol.LB_NAMESPACE).getStructValue()
                .getFieldsOrThrow(EppProtocol.DESTINATION_ENDPOINT).getStringValue();
        return new Pick(headers.get(EppProtocol.DESTINATION_ENDPOINT), metadata, headers, body, changed);
    }

    static Map<String, String> headers(List<HeaderValueOption> set) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (HeaderValueOption option : set) {
            assertThat(option.getAppendAction())
                    .isEqualTo(HeaderValueOption.HeaderAppendAction.OVERWRITE_IF_EXISTS_OR_ADD);
            headers.put(option.getHeader().getKey(), option.getHeader().getRawValue().toStringUtf8());
        }
        return headers;
    }

    /** What Envoy does next: sends the (possibly rewritten) request to the picked endpoint with the picker's headers. */
    HttpResponse<String> forward(Pick pick, String path) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://" + pick.endpoint() + path))
                .timeout(Duration.ofSeconds(20)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(pick.body()));
        Set<String> restricted = Set.of("content-length", "host");
        pick.headers().forEach((name, value) -> {
            if (!restricted.contains(name)) {
                request.header(name, value);
            }
        });
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String chat(String content, int maxTokens, boolean stream) {
        return "{\"model\":\"" + MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":\"" + content + "\"}],"
                + "\"max_tokens\":" + maxTokens + ",\"stream\":" + stream + "}";
    }

    /** Every request has ended: ledgers at zero, nothing in flight at any gateway, no open stream at any pod. */
    void assertQuiescent() {
        await().atMost(10, TimeUnit.SECONDS).untilAsserted(() -> {
            for (GatewayServer g : gateways) {
                assertThat(g.routing().session().requests().outstanding()).as("ledger outstanding").isZero();
                assertThat(g.routing().session().tokens().outstandingTokens()).as("token ledger outstanding").isZero();
                assertThat(g.metrics().inFlight()).as("gateway in-flight").isZero();
                assertThat(g.metrics().prefillOutstanding()).as("prefill legs outstanding").isZero();
            }
            for (Map.Entry<String, SimPod> sim : sims.entrySet()) {
                assertThat(sim.getValue().openStreams()).as("open streams at " + sim.getKey()).isZero();
            }
        });
    }

    @Override
    public void close() {
        try {
            if (!gateways.isEmpty()) {
                assertQuiescent();
            }
        } finally {
            if (channel != null) {
                channel.shutdownNow();
            }
            if (picker != null) {
                picker.close();
            }
            gateways.forEach(g -> g.close().await());
            sims.values().forEach(s -> s.close().await());
            vertx.close().await();
        }
    }
}
