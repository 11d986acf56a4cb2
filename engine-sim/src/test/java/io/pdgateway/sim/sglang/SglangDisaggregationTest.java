package io.pdgateway.sim.sglang;

import static io.pdgateway.sim.SimTestSupport.JSON;
import static io.pdgateway.sim.SimTestSupport.await;
import static io.pdgateway.sim.SimTestSupport.get;
import static io.pdgateway.sim.SimTestSupport.json;
import static io.pdgateway.sim.SimTestSupport.post;
import static io.pdgateway.sim.SimTestSupport.prometheus;
import static io.pdgateway.sim.SimTestSupport.sseData;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.sim.EngineLoop;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.RawHttp;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import io.pdgateway.sim.TimingProfile;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * SGLang P/D between a prefill pod on 127.0.0.20 and a decode pod on 127.0.0.21, driven the way a PD router drives
 * them (upstream-pd-router.md §1.3): both legs at once, meeting over the prefill's bootstrap server by room.
 * <ul>
 *   <li>the prefill answers only after the decode took its KV, whichever arrived first;</li>
 *   <li>the decode's stream headers go out before its first token;</li>
 *   <li>missing bootstrap fields are a 400, a wrong bootstrap address an error, never a silent local prefill;</li>
 *   <li>/abort_request drops a request by rid, also while it waits for its KV;</li>
 *   <li>a prefill whose decode never comes fails after the bootstrap timeout;</li>
 *   <li>/metrics speaks SGLang's names.</li>
 * </ul>
 */
class SglangDisaggregationTest {

    /** 500× faster: SGLang's 300 s bootstrap timeout would be 0.6 s here, but a protocol timeout is at least 5 s. */
    private static final double TIME_SCALE = 0.002;
    private static final AtomicLong ROOMS = new AtomicLong(1000);

    private static Vertx vertx;
    private static SimPod prefill;
    private static SimPod decode;

    @BeforeAll
    static void startPods() {
        vertx = Vertx.vertx();
        SimConfig base = SimConfig.builder().engine("sglang").timeScale(TIME_SCALE).seed(5).bootstrapPort(0).build();
        prefill = await(SimPod.start(vertx, base.toBuilder().role(SimRole.PREFILL).host("127.0.0.20").build()));
        decode = await(SimPod.start(vertx, base.toBuilder().role(SimRole.DECODE).host("127.0.0.21").build()));
    }

    @AfterEach
    void invariants() {
        prefill.setFaults(FaultConfig.none());
        decode.setFaults(FaultConfig.none());
        await().atMost(Duration.ofSeconds(5)).until(() -> prefill.openStreams() == 0 && decode.openStreams() == 0);
    }

    @AfterAll
    static void stop() {
        await(prefill.close());
        await(decode.close());
        await(vertx.close());
    }

    private static ObjectNode body(long room, boolean stream, int maxTokens) {
        ObjectNode body = JSON.createObjectNode();
        body.put("model", "my-model");
        body.putArray("messages").addObject().put("role", "user").put("content", "tell me about bootstrap rooms");
        body.put("max_tokens", maxTokens);
        body.put("stream", stream);
        body.put("bootstrap_host", prefill.host());
        body.put("bootstrap_port", prefill.bootstrapPort());
        body.put("bootstrap_room", room);
        return body;
    }

    private static ObjectNode prefillBody(long room) {
        return body(room, false, 1).put("rid", "p-" + room);
    }

    @Test
    void prefillFirst_answersOnlyAfterTheDecodeTookTheKv() throws Exception {
        long room = ROOMS.incrementAndGet();
        try (RawHttp prefillClient = RawHttp.connect(prefill.host(), prefill.port(), Duration.ofMillis(150))) {
            prefillClient.post("/v1/chat/completions", prefillBody(room).toString());
            assertThatThrownBy(prefillClient::readHead).as("no answer while no decode took the KV")
                    .isInstanceOf(SocketTimeoutException.class);

            HttpResponse<String> decoded = post(decode, "/v1/chat/completions", body(room, true, 5).toString());

            assertThat(decoded.statusCode()).as(decoded.body()).isEqualTo(200);
            assertThat(sseData(decoded.body())).last().isEqualTo("[DONE]");
            assertThat(prefill.kvTransfersServed()).isPositive();
        }
    }

    @Test
    void decodeFirst_streamHeadersAtOnce_thenTokensOnceThePrefillRan() throws Exception {
        long room = ROOMS.incrementAndGet();
        try (RawHttp decodeClient = RawHttp.connect(decode.host(), decode.port(), Duration.ofSeconds(5))) {
            decodeClient.post("/v1/chat/completions", body(room, true, 4).toString());
            RawHttp.Head head = decodeClient.readHead();
            assertThat(head.status()).isEqualTo(200);
            assertThat(head.headers().get("content-type")).startsWith("text/event-stream");

            HttpResponse<String> prefilled = post(prefill, "/v1/chat/completions", prefillBody(room).toString());

            assertThat(prefilled.statusCode()).as(prefilled.body()).isEqualTo(200);
            assertThat(json(prefilled.body()).path("usage").path("completion_tokens").asInt()).isEqualTo(1);
            StringBuilder events = new StringBuilder();
            for (String chunk = decodeClient.readChunk(); chunk != null; chunk = decodeClient.readChunk()) {
                events.append(chunk);
            }
            assertThat(sseData(events.toString())).hasSize(1 + 4 + 1).last().isEqualTo("[DONE]");
        }
    }

    @Test
    void missingBootstrapFields_400OnBothRoles() {
        ObjectNode noRoom = body(1, false, 1);
        noRoom.remove("bootstrap_room");
        assertThat(post(prefill, "/v1/chat/completions", noRoom.toString()).statusCode()).isEqualTo(400);
        ObjectNode noHost = body(1, false, 1);
        noHost.remove("bootstrap_host");
        HttpResponse<String> response = post(decode, "/v1/chat/completions", noHost.toString());
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(json(response.body()).path("object").asText()).isEqualTo("error");
        assertThat(json(response.body()).path("message").asText()).contains("bootstrap_host");
    }

    @Test
    void decodeStream_wrongBootstrapPort_errorEventAfterHeaders() {
        ObjectNode misdirected = body(ROOMS.incrementAndGet(), true, 3).put("bootstrap_port", prefill.port());

        HttpResponse<String> response = post(decode, "/v1/chat/completions", misdirected.toString());

        assertThat(response.statusCode()).as("the headers went out first").isEqualTo(200);
        List<String> events = sseData(response.body());
        assertThat(json(events.get(0)).path("error").path("message").asText()).startsWith("KV transfer failed");
        assertThat(events).last().isEqualTo("[DONE]");
    }

    @Test
    void decodeNonStream_unreachableBootstrap_500() {
        ObjectNode misdirected = body(ROOMS.incrementAndGet(), false, 3).put("bootstrap_host", "127.0.0.29");

        HttpResponse<String> response = post(decode, "/v1/chat/completions", misdirected.toString());

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(json(response.body()).path("message").asText()).contains("127.0.0.29");
    }

    @Test
    void abortRequest_dropsADecodeWaitingForItsKv() throws Exception {
        long room = ROOMS.incrementAndGet();
        ObjectNode waiting = body(room, true, 4).put("rid", "abort-me");
        int abortedBefore = decode.requestsAborted();
        CompletableFuture<HttpResponse<String>> stream = CompletableFuture.supplyAsync(
                () -> post(decode, "/v1/chat/completions", waiting.toString()));
        await().atMost(Duration.ofSeconds(5)).until(() -> decode.openStreams() == 1);

        HttpResponse<String> abort = post(decode, "/abort_request", "{\"rid\":\"abort-me\"}");

        assertThat(abort.statusCode()).isEqualTo(200);
        List<String> events = sseData(stream.get().body());
        assertThat(json(events.get(0)).path("choices").path(0).path("finish_reason").asText()).isEqualTo("abort");
        assertThat(json(events.get(0)).path("id").asText()).endsWith("abort-me");
        assertThat(events).last().isEqualTo("[DONE]");
        assertThat(decode.requestsAborted()).isEqualTo(abortedBefore + 1);
        assertThat(post(decode, "/abort_request", "{\"rid\":\"abort-me\"}").statusCode())
                .as("an unknown rid is no error").isEqualTo(200);
        assertThat(decode.requestsAborted()).isEqualTo(abortedBefore + 1);
    }

    @Test
    void abortRequest_dropsAPrefillWaitingForItsDecode() {
        long room = ROOMS.incrementAndGet();
        CompletableFuture<HttpResponse<String>> held = CompletableFuture.supplyAsync(
                () -> post(prefill, "/v1/chat/completions", prefillBody(room).toString()));
        await().atMost(Duration.ofSeconds(5)).until(() -> prefill.openStreams() == 1);

        post(prefill, "/abort_request", "{\"rid\":\"p-" + room + "\"}");

        HttpResponse<String> response = held.join();
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(json(response.body()).path("choices").path(0).path("finish_reason").asText()).isEqualTo("abort");
    }

    @Test
    void prefillWhoseDecodeNeverComes_500AfterTheBootstrapTimeout() {
        long started = System.nanoTime();

        HttpResponse<String> response = post(prefill, "/v1/chat/completions", prefillBody(ROOMS.incrementAndGet())
                .toString());

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(json(response.body()).path("message").asText()).contains("no decode took the KV");
        // 300 s modelled at time scale 0.002 = 0.6 s, raised to a protocol timeout's floor of 5 s.
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isBetween(
                Duration.ofMillis(EngineLoop.PROTOCOL_TIMEOUT_FLOOR_MILLIS - 100), Duration.ofSeconds(10));
    }

    @Test
    void metrics_sglangNames() throws IOException {
        Map<String, Double> samples = prometheus(get(decode, "/metrics").body());
        for (String name : new String[] {"sglang:num_running_reqs", "sglang:num_queue_reqs", "sglang:token_usage",
            "sglang:gen_throughput", "sglang:num_requests_total", "sglang:num_prefill_prealloc_queue_reqs",
            "sglang:num_decode_prealloc_queue_reqs"}) {
            assertThat(samples).as(name).containsKey(name + "{model_name=\"my-model\"}");
        }
        // The KV pool's size, as SGLang sets it once at start: a router's view of the pod's cache capacity.
        assertThat(samples.get("sglang:max_total_num_tokens{model_name=\"my-model\"}"))
                .isEqualTo((double) TimingProfile.llama3_8b_h100().kvCapacityTokens());
    }
}
