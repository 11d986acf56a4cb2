package io.pdgateway.sim.sglang;

import static io.pdgateway.sim.SimTestSupport.JSON;
import static io.pdgateway.sim.SimTestSupport.await;
import static io.pdgateway.sim.SimTestSupport.get;
import static io.pdgateway.sim.SimTestSupport.json;
import static io.pdgateway.sim.SimTestSupport.post;
import static io.pdgateway.sim.SimTestSupport.sseData;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * SGLang's native API as other routers call it, each endpoint checked for the fields those routers read:
 * <ul>
 *   <li>sglang-router registers a worker from {@code /get_server_info} ({@code model_path}, {@code dp_size},
 *       {@code version}, the {@code max_*} limits) and its PD mode sends {@code /generate} to both legs with the
 *       bootstrap fields; its load monitor sums {@code num_tokens} (and {@code num_waiting_reqs}) over
 *       {@code /get_load}'s ranks; it health-checks {@code /health} or {@code /health_generate} and fans
 *       {@code POST /flush_cache} out to workers;</li>
 *   <li>{@code /server_info} and {@code /model_info} are the newer names of the {@code get_} endpoints;</li>
 *   <li>an explicit {@code "bootstrap_port": null} on a decode means the server's own bootstrap port, as SGLang's
 *       scheduler reads it.</li>
 * </ul>
 */
class SglangNativeApiTest {
    /** 100× faster than real time for the P/D and generate checks. */
    private static final double FAST = 0.01;
    /** Enough words for several 16-token blocks, so a repeat of the prompt hits the prefix cache. */
    private static final String LONG_TEXT = "the quick brown fox jumps over the lazy dog ".repeat(12);

    private static Vertx vertx;
    private static SimPod prefill;
    private static SimPod decode;
    private static SimPod standard;

    @BeforeAll
    static void startPods() {
        vertx = Vertx.vertx();
        SimConfig base = SimConfig.builder().engine("sglang").timeScale(FAST).seed(11).build();
        prefill = await(SimPod.start(vertx, base.toBuilder().role(SimRole.PREFILL).host("127.0.0.30").bootstrapPort(0)
                .build()));
        // The decode's own --disaggregation-bootstrap-port is the prefill's: what "bootstrap_port": null falls back on.
        decode = await(SimPod.start(vertx, base.toBuilder().role(SimRole.DECODE).host("127.0.0.31")
                .bootstrapPort(prefill.bootstrapPort()).build()));
        standard = await(SimPod.start(vertx, base.toBuilder().role(SimRole.COMBINED).host("127.0.0.32").build()));
    }

    @AfterEach
    void invariants() {
        standard.setFaults(FaultConfig.none());
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> prefill.openStreams() == 0
                && decode.openStreams() == 0 && standard.openStreams() == 0);
    }

    @AfterAll
    static void stop() {
        await(prefill.close());
        await(decode.close());
        await(standard.close());
        await(vertx.close());
    }

    @Test
    void serverInfo_bothNames_carryWhatSglangRouterRegistersAWorkerFrom() {
        JsonNode info = json(get(prefill, "/get_server_info").body());

        assertThat(json(get(prefill, "/server_info").body())).isEqualTo(info);
        assertThat(info.path("model_path").asText()).isEqualTo("my-model");
        assertThat(info.path("served_model_name").asText()).isEqualTo("my-model");
        assertThat(info.path("tokenizer_path").asText()).isEqualTo("my-model");
        assertThat(info.path("dp_size").isInt()).isTrue();
        assertThat(info.path("dp_size").asInt()).isEqualTo(1);
        assertThat(info.path("tp_size").asInt()).isEqualTo(1);
        assertThat(info.path("version").asText()).startsWith("0.").endsWith("+sim");
        assertThat(info.path("max_running_requests").asInt()).isPositive();
        assertThat(info.path("max_total_tokens").asInt()).isPositive();
        assertThat(info.path("max_prefill_tokens").asInt()).isPositive();
        assertThat(info.path("max_total_num_tokens").asInt()).isEqualTo(info.path("max_total_tokens").asInt());
        assertThat(info.path("context_length").asInt()).isGreaterThan(info.path("max_req_input_len").asInt());
        assertThat(info.path("port").asInt()).isEqualTo(prefill.port());
        assertThat(info.path("disaggregation_mode").asText()).isEqualTo("prefill");
        assertThat(info.path("disaggregation_bootstrap_port").asInt()).isEqualTo(prefill.bootstrapPort());
        assertThat(info.path("internal_states").isArray()).isTrue();
        assertThat(info.path("internal_states")).hasSize(info.path("dp_size").asInt());
        assertThat(json(get(decode, "/get_server_info").body()).path("disaggregation_mode").asText())
                .isEqualTo("decode");
        assertThat(json(get(standard, "/server_info").body()).path("disaggregation_mode").asText()).isEqualTo("null");
    }

    @Test
    void modelInfo_bothNames_sayWhatModelAndThatItGenerates() {
        JsonNode info = json(get(standard, "/get_model_info").body());

        assertThat(json(get(standard, "/model_info").body())).isEqualTo(info);
        assertThat(info.path("model_path").asText()).isEqualTo("my-model");
        assertThat(info.path("tokenizer_path").asText()).isEqualTo("my-model");
        assertThat(info.path("is_generation").asBoolean()).isTrue();
        assertThat(info.has("preferred_sampling_params")).isTrue();
        assertThat(info.path("weight_version").isTextual()).isTrue();
    }

    @Test
    void generate_nonStreaming_textAndMetaInfo_noModelNeeded() {
        HttpResponse<String> response = post(standard, "/generate", JSON.createObjectNode().put("text", "Hello there")
                .put("rid", "gen-1").set("sampling_params", JSON.createObjectNode().put("max_new_tokens", 5))
                .toString());

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode answer = json(response.body());
        assertThat(answer.path("text").asText()).isNotEmpty();
        JsonNode meta = answer.path("meta_info");
        assertThat(meta.path("id").asText()).isEqualTo("gen-1");
        assertThat(meta.path("finish_reason").path("type").asText()).isEqualTo("length");
        assertThat(meta.path("finish_reason").path("length").asInt()).isEqualTo(5);
        assertThat(meta.path("completion_tokens").asInt()).isEqualTo(5);
        assertThat(meta.path("prompt_tokens").asInt()).isPositive();
        assertThat(meta.has("cached_tokens")).isTrue();
    }

    @Test
    void generate_streaming_eachEventCarriesTheWholeTextSoFar() {
        ObjectNode body = JSON.createObjectNode().put("stream", true);
        body.putArray("input_ids").add(1).add(2).add(3).add(4);
        body.putObject("sampling_params").put("max_new_tokens", 4);

        HttpResponse<String> response = post(standard, "/generate", body.toString());

        assertThat(response.statusCode()).isEqualTo(200);
        List<String> events = sseData(response.body());
        assertThat(events).hasSize(5).last().isEqualTo("[DONE]");
        String previous = "";
        for (int i = 0; i < 4; i++) {
            JsonNode event = json(events.get(i));
            String text = event.path("text").asText();
            assertThat(text).as("event %d extends the text so far", i).startsWith(previous).isNotEqualTo(previous);
            previous = text;
            assertThat(event.path("meta_info").path("completion_tokens").asInt()).isEqualTo(i + 1);
            assertThat(event.path("meta_info").path("prompt_tokens").asInt()).isEqualTo(4);
            assertThat(event.path("meta_info").path("finish_reason").isNull()).isEqualTo(i < 3);
        }
    }

    @Test
    void generate_put_isTheSameApi_batchRefused() {
        HttpResponse<String> put = send(HttpRequest.newBuilder(URI.create(standard.baseUrl() + "/generate"))
                .header("content-type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"text\":\"hi\",\"sampling_params\":{\"max_new_tokens\":1}}")));
        assertThat(put.statusCode()).isEqualTo(200);
        assertThat(post(standard, "/generate", "{\"text\":[\"a\",\"b\"]}").statusCode()).isEqualTo(400);
        assertThat(post(standard, "/generate", "{\"sampling_params\":{}}").statusCode()).isEqualTo(400);
    }

    @Test
    void generateOnBothLegs_decodeWithBootstrapPortNull_usesItsOwnBootstrapPort() throws Exception {
        long room = 4242;
        ObjectNode prefillBody = JSON.createObjectNode().put("text", LONG_TEXT).put("rid", "p-" + room)
                .put("bootstrap_host", prefill.host()).put("bootstrap_port", prefill.bootstrapPort())
                .put("bootstrap_room", room);
        prefillBody.putObject("sampling_params").put("max_new_tokens", 1);
        ObjectNode decodeBody = JSON.createObjectNode().put("text", LONG_TEXT).put("rid", "d-" + room)
                .put("bootstrap_host", prefill.host()).putNull("bootstrap_port").put("bootstrap_room", room);
        decodeBody.putObject("sampling_params").put("max_new_tokens", 3);

        CompletableFuture<HttpResponse<String>> prefillLeg = CompletableFuture.supplyAsync(
                () -> post(prefill, "/generate", prefillBody.toString()));
        HttpResponse<String> decodeLeg = post(decode, "/generate", decodeBody.toString());

        assertThat(decodeLeg.statusCode()).as(decodeLeg.body()).isEqualTo(200);
        assertThat(json(decodeLeg.body()).path("meta_info").path("completion_tokens").asInt()).isEqualTo(3);
        assertThat(prefillLeg.get().statusCode()).as("the prefill answers once the decode took the KV").isEqualTo(200);
        assertThat(decode.kvMissing()).isZero();
        assertThat(post(decode, "/generate", decodeBody.put("bootstrap_port", "8998").toString()).statusCode())
                .as("a port that is neither a number nor null").isEqualTo(400);
    }

    @Test
    void getLoadAndFlushCache_followTheRunningRequest() {
        // A long stream at real speed keeps one request running while the load and the flush are asked for.
        SimPod slow = await(SimPod.start(vertx, SimConfig.builder().engine("sglang").role(SimRole.COMBINED)
                .host("127.0.0.33").timeScale(1.0).seed(3).build()));
        try {
            JsonNode idle = json(get(slow, "/get_load").body());
            assertThat(idle).hasSize(1);
            assertThat(idle.get(0).path("dp_rank").asInt()).isZero();
            assertThat(idle.get(0).path("num_reqs").asInt()).isZero();
            assertThat(idle.get(0).path("num_tokens").asInt()).isZero();

            CompletableFuture<HttpResponse<String>> stream = CompletableFuture.supplyAsync(() -> post(slow, "/generate",
                    "{\"text\":\"" + LONG_TEXT + "\",\"rid\":\"long\",\"stream\":true,"
                            + "\"sampling_params\":{\"max_new_tokens\":4000}}"));
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(
                    () -> json(get(slow, "/get_load").body()).get(0).path("num_reqs").asInt() == 1);
            JsonNode busy = json(get(slow, "/get_load").body()).get(0);
            assertThat(busy.path("num_waiting_reqs").asInt()).isZero();
            assertThat(busy.path("num_tokens").asInt()).as("its KV is reserved").isPositive();
            HttpResponse<String> refused = post(slow, "/flush_cache", "");
            assertThat(refused.statusCode()).as("no flush while a request runs").isEqualTo(400);

            assertThat(post(slow, "/abort_request", "{\"rid\":\"long\"}").statusCode()).isEqualTo(200);
            assertThat(stream.join().body()).endsWith("data: [DONE]\n\n");
            Awaitility.await().atMost(Duration.ofSeconds(5)).until(
                    () -> json(get(slow, "/get_load").body()).get(0).path("num_reqs").asInt() == 0);
        } finally {
            await(slow.close());
        }
    }

    @Test
    void flushCache_whenIdle_forgetsThePrefixCache() {
        String body = "{\"text\":\"" + LONG_TEXT + "\",\"sampling_params\":{\"max_new_tokens\":1}}";
        post(standard, "/generate", body);
        int cachedBefore = cached(post(standard, "/generate", body));

        HttpResponse<String> flushed = get(standard, "/flush_cache");
        int cachedAfter = cached(post(standard, "/generate", body));

        assertThat(cachedBefore).as("the repeat hit the prefix cache").isPositive();
        assertThat(flushed.statusCode()).isEqualTo(200);
        assertThat(flushed.body()).startsWith("Cache flushed.");
        assertThat(cachedAfter).as("after the flush").isZero();
        assertThat(post(standard, "/flush_cache", "").statusCode()).as("POST too").isEqualTo(200);
    }

    @Test
    void healthGenerate_200WhenHealthy_503WhenTheEngineFails() {
        HttpResponse<String> healthy = get(standard, "/health_generate");
        standard.setFaults(FaultConfig.none().withErrors(1.0, 500));
        HttpResponse<String> failing = get(standard, "/health_generate");

        assertThat(healthy.statusCode()).isEqualTo(200);
        assertThat(healthy.body()).isEmpty();
        assertThat(failing.statusCode()).isEqualTo(503);
    }

    private static int cached(HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return json(response.body()).path("meta_info").path("cached_tokens").asInt();
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return HttpClient.newHttpClient().send(request.timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError("request failed: " + e, e);
        }
    }
}
