package io.pdgateway.sim;

import static io.pdgateway.sim.SimTestSupport.FAST;
import static io.pdgateway.sim.SimTestSupport.await;
import static io.pdgateway.sim.SimTestSupport.chat;
import static io.pdgateway.sim.SimTestSupport.json;
import static io.pdgateway.sim.SimTestSupport.post;
import static io.pdgateway.sim.SimTestSupport.sseData;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.vertx.core.Vertx;
import java.io.EOFException;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Injected failures look to a client as they would from a failing engine: an error status with the engine's
 * body, a stream cut after N chunks, no answer at all, a stream that stops; and a client that leaves mid-stream
 * ends its response at once (openStreams back to 0, streamsCancelled counts it).
 */
class FaultInjectionTest {

    private static final Duration SHORT_WAIT = Duration.ofMillis(300);

    private static Vertx vertx;
    private static SimPod pod;

    @BeforeAll
    static void startPod() {
        vertx = Vertx.vertx();
        pod = await(SimPod.start(vertx, SimConfig.builder().host("127.0.0.6").timeScale(FAST).build()));
    }

    @AfterEach
    void resetAndCheck() {
        pod.setFaults(FaultConfig.none());
        await().atMost(Duration.ofSeconds(5)).until(() -> pod.openStreams() == 0);
    }

    @AfterAll
    static void stop() {
        await(pod.close());
        await(vertx.close());
    }

    @Test
    void errorRateOne_answersConfiguredStatusWithEngineErrorBody() {
        pod.setFaults(FaultConfig.none().withErrors(1.0, 503));
        int injectedBefore = pod.errorsInjected();

        HttpResponse<String> response = post(pod, "/v1/chat/completions", chat("my-model", "hi", 2, true));

        assertThat(response.statusCode()).isEqualTo(503);
        assertThat(json(response.body()).path("error").path("code").asInt()).isEqualTo(503);
        assertThat(json(response.body()).path("error").path("type").asText()).isEqualTo("ServiceUnavailableError");
        assertThat(pod.errorsInjected()).isEqualTo(injectedBefore + 1);
    }

    @Test
    void dropAfterThreeTokens_clientSeesTruncatedStream() throws Exception {
        pod.setFaults(FaultConfig.none().withDropAfterTokens(3));
        int droppedBefore = pod.connectionsDropped();
        try (RawHttp http = RawHttp.connect(pod.host(), pod.port(), Duration.ofSeconds(5))) {
            http.post("/v1/chat/completions", chat("my-model", "hello", 10, true));
            assertThat(http.readHead().status()).isEqualTo(200);
            StringBuilder received = new StringBuilder();
            for (int i = 0; i < 4; i++) { // the role chunk and three token chunks
                received.append(http.readChunk());
            }
            assertThat(sseData(received.toString())).hasSize(4).doesNotContain("[DONE]");

            assertThatThrownBy(http::readChunk).isInstanceOf(EOFException.class);
        }
        assertThat(pod.connectionsDropped()).isEqualTo(droppedBefore + 1);
    }

    @Test
    void dropAfterZeroTokens_closesBeforeAnyResponseByte() throws Exception {
        pod.setFaults(FaultConfig.none().withDropAfterTokens(0));
        try (RawHttp http = RawHttp.connect(pod.host(), pod.port(), Duration.ofSeconds(5))) {
            http.post("/v1/completions", "{\"model\":\"my-model\",\"prompt\":\"x\"}");
            assertThatThrownBy(http::readHead).isInstanceOf(EOFException.class);
        }
    }

    @Test
    void hangBeforeHeaders_clientTimesOut_andItsLeavingEndsTheStream() throws Exception {
        pod.setFaults(FaultConfig.none().withHangBeforeHeaders());
        int cancelledBefore = pod.streamsCancelled();
        int hangsBefore = pod.hangsInjected();
        try (RawHttp http = RawHttp.connect(pod.host(), pod.port(), SHORT_WAIT)) {
            http.post("/v1/chat/completions", chat("my-model", "anyone there?", 2, true));
            assertThatThrownBy(http::readHead).isInstanceOf(SocketTimeoutException.class);
            assertThat(pod.openStreams()).isEqualTo(1);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> pod.openStreams() == 0);
        assertThat(pod.streamsCancelled()).isEqualTo(cancelledBefore + 1);
        assertThat(pod.hangsInjected()).isEqualTo(hangsBefore + 1);
    }

    @Test
    void hangAfterTwoTokens_streamStopsWithoutDone() throws Exception {
        pod.setFaults(FaultConfig.none().withHangAfterTokens(2));
        int hangsBefore = pod.hangsInjected();
        try (RawHttp http = RawHttp.connect(pod.host(), pod.port(), SHORT_WAIT)) {
            http.post("/v1/chat/completions", chat("my-model", "go on", 10, true));
            assertThat(http.readHead().status()).isEqualTo(200);
            http.readChunk(); // role
            http.readChunk();
            http.readChunk();
            assertThatThrownBy(http::readChunk).isInstanceOf(SocketTimeoutException.class);
        }
        assertThat(pod.hangsInjected()).isEqualTo(hangsBefore + 1);
    }

    @Test
    void faultConfiguredButNotReached_notCounted() {
        pod.setFaults(FaultConfig.none().withDropAfterTokens(10).withHangAfterTokens(10));
        int before = pod.faultsInjected();

        HttpResponse<String> response = post(pod, "/v1/chat/completions", chat("my-model", "short", 3, false));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(pod.faultsInjected()).as("3 tokens never reach the 10th").isEqualTo(before);
    }

    @Test
    void openConnections_countsHeldConnections_andTheirClosing() throws Exception {
        int before = pod.openConnections();
        try (RawHttp first = RawHttp.connect(pod.host(), pod.port(), Duration.ofSeconds(5));
                RawHttp second = RawHttp.connect(pod.host(), pod.port(), Duration.ofSeconds(5))) {
            // The server tells HTTP/1.1 from HTTP/2 by the first bytes: a connection counts once a request came.
            for (RawHttp http : new RawHttp[] {first, second}) {
                http.post("/v1/completions", "{\"model\":\"my-model\",\"prompt\":\"x\",\"max_tokens\":1}");
                assertThat(http.readHead().status()).isEqualTo(200);
            }
            assertThat(pod.openConnections()).isEqualTo(before + 2);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> pod.openConnections() == before);
    }

    @Test
    void clientDisconnectMidStream_dropsSequenceAndEndsStream() throws Exception {
        int cancelledBefore = pod.streamsCancelled();
        try (RawHttp http = RawHttp.connect(pod.host(), pod.port(), Duration.ofSeconds(5))) {
            // 20,000 tokens take about 1.5 s even at time scale 0.01: still streaming when the client leaves.
            http.post("/v1/chat/completions", chat("my-model", "a very long answer please", 20_000, true));
            assertThat(http.readHead().status()).isEqualTo(200);
            http.readChunk();
            http.readChunk();
            assertThat(pod.openStreams()).isEqualTo(1);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> pod.openStreams() == 0);
        assertThat(pod.streamsCancelled()).isEqualTo(cancelledBefore + 1);
        assertThat(runningRequests()).isZero();
    }

    private static double runningRequests() {
        return SimTestSupport.sample(SimTestSupport.prometheus(SimTestSupport.get(pod, "/metrics").body()),
                "vllm:num_requests_running");
    }
}
