package io.pdgateway.sim;

import io.pdgateway.sim.api.PodContext;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;

/**
 * A simulated inference-engine pod: a real HTTP server on its own address speaking the engine's wire protocol
 * (vLLM, SGLang or TensorRT-LLM), in the prefill, decode or combined role, with the timing model of
 * {@link TimingProfile}. Embeddable (tests and the demo start several in one Vert.x instance) and observable:
 * it records every request it receives and counts open, cancelled and dropped responses.
 *
 * <p>Thread-safe: the getters may be called from any thread; the pod itself runs on its own event loop.
 */
public final class SimPod {

    private final Vertx vertx;
    private final String deploymentId;
    private final PodContext pod;

    private SimPod(Vertx vertx, String deploymentId, PodContext pod) {
        this.vertx = vertx;
        this.deploymentId = deploymentId;
        this.pod = pod;
    }

    /** Starts a pod; the future completes once it listens. Logs one line: engine, role, address, model. */
    public static Future<SimPod> start(Vertx vertx, SimConfig config) {
        SimPodServer server = new SimPodServer(config);
        return vertx.deployVerticle(server).map(id -> new SimPod(vertx, id, server.pod()));
    }

    /** The address to reach the pod at: its bind address, or 127.0.0.1 when bound to every interface. */
    public String host() {
        return pod.advertisedHost();
    }

    public int port() {
        return pod.port();
    }

    /** {@code http://host:port}, for building request URLs. */
    public String baseUrl() {
        return "http://" + host() + ":" + port();
    }

    public SimConfig config() {
        return pod.config();
    }

    /** The engine id this pod announces in its P/D fields (vLLM: {@code remote_engine_id}). */
    public String engineId() {
        return pod.engineId();
    }

    /** Every request received on any path, in arrival order (the latest {@value RequestRecorder#LIMIT}). */
    public List<RecordedRequest> recordedRequests() {
        return pod.recorder().snapshot();
    }

    /** The oldest request received on {@code path} that no earlier call took, or null when there is none. */
    public RecordedRequest takeRequest(String path) {
        return pod.recorder().take(path);
    }

    /** Changes the injected faults; requests already in flight keep the faults they arrived with. */
    public void setFaults(FaultConfig faults) {
        pod.setFaults(faults);
    }

    public FaultConfig faults() {
        return pod.faults();
    }

    /** Completion responses in flight: begun and not yet ended, failed or abandoned. Returns to 0 when idle. */
    public int openStreams() {
        return pod.openStreams().get();
    }

    /**
     * Completion responses whose connection the client closed before the response ended (e.g. a gateway that
     * closed its decode connection because its own client went away). Their sequences left the batch at once.
     */
    public int streamsCancelled() {
        return pod.streamsCancelled().get();
    }

    /** Connections the pod dropped on purpose mid-response (the dropAfterTokens fault). */
    public int connectionsDropped() {
        return pod.connectionsDropped().get();
    }

    /** Requests answered with the injected error status (the errorRate fault). */
    public int errorsInjected() {
        return pod.errorsInjected().get();
    }

    /** Requests left hanging on purpose, before their headers or after their Nth token (the hang faults). */
    public int hangsInjected() {
        return pod.hangsInjected().get();
    }

    /**
     * Every fault this pod actually injected: errors, hangs and dropped connections. A fault configured but never
     * reached (a drop after 10 tokens on an answer of 4) is not counted.
     */
    public int faultsInjected() {
        return errorsInjected() + hangsInjected() + connectionsDropped();
    }

    /**
     * TCP connections open to the pod's OpenAI server right now (kept-alive idle ones included): a client that leaks
     * connections shows here.
     */
    public int openConnections() {
        return pod.openConnections().get();
    }

    /** Decode-role requests that arrived without KV from a prefill pod and were prefilled here instead. */
    public int kvMissing() {
        return pod.kvMissing().get();
    }

    /** KV side-channel fetches this pod answered with the KV (prefill role). */
    public int kvTransfersServed() {
        return pod.kvTransfersServed().get();
    }

    /** Requests an abort call (SGLang's {@code /abort_request}) found in flight and dropped. */
    public int requestsAborted() {
        return pod.requestsAborted().get();
    }

    /** The SGLang prefill's bootstrap server port (useful when configured as 0), or -1 when the pod runs none. */
    public int bootstrapPort() {
        return pod.bootstrapPort();
    }

    /** The pod's KV-event publisher (--kv-events-config), or null when it publishes none. */
    public io.pdgateway.sim.kvevents.KvEventPublisher kvEvents() {
        return pod.kvEvents();
    }

    /** Stops the pod: closes its server and connections, cancels its timers. */
    public Future<Void> close() {
        return vertx.undeploy(deploymentId);
    }

    @Override
    public String toString() {
        return pod.config().engine() + "/" + pod.config().role().label() + "@" + host() + ":" + port();
    }
}
