package io.pdgateway.epp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.RecordedRequest;
import io.pdgateway.sim.SimRole;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The endpoint picker driven message by message as Envoy's ext_proc filter drives it, against simulated engine pods
 * on loopback; Envoy's own HTTP call to the picked pod is made by the test. Covered: a vLLM pair with a BUFFERED body
 * (the prefill runs in the picker, Envoy gets the decode pod and the decode body with kv_transfer_params); an SGLang
 * pair with a FULL_DUPLEX_STREAMED body in chunks (held headers, bootstrap fields, the response echoed chunk by chunk);
 * the standard-pod fallback (no body mutation); the response side (serve's headers, the served endpoint, end of stream,
 * trailers); resets during the prefill and mid-response that release every charge; the subset hint; and prompts the
 * computing pod refuses, which leave its cache view as it was.
 */
class EppIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** About 150 blocks; and about 140,000 tokens, over the simulated engine's 131,072-token context. */
    private static final String ORDINARY = "ordinary " + "word ".repeat(2_000).trim();
    private static final String OVER_CONTEXT = "word ".repeat(112_000).trim();
    private EppCluster cluster;

    @AfterEach
    void tearDown() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static JsonNode json(byte[] body) throws Exception {
        return JSON.readTree(body);
    }

    /** The SSE stream split where events end, as a proxy relays it in pieces. */
    private static List<String> chunks(String sse) {
        return Arrays.stream(sse.split("(?<=\n\n)")).filter(s -> !s.isEmpty()).toList();
    }

    @Test
    void vllmPairBufferedBody_prefillInThePicker_envoySentToDecodeWithKvTransferParams() throws Exception {
        cluster = new EppCluster("vllm").prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .startPicker(Map.of("ROUTING_ALGORITHM", "pd"));
        byte[] client = EppCluster.chat("hello picker", 8, true).getBytes(StandardCharsets.UTF_8);
        try (EnvoyStream envoy = cluster.buffered()) {
            envoy.requestHeaders(EppCluster.CHAT, Map.of("x-request-id", "req-7",
                    "x-gateway-destination-endpoint", "10.9.9.9:80"), null);
            assertThat(envoy.next().hasRequestHeaders()).as("BUFFERED: the headers are let through first").isTrue();
            envoy.requestBody(client, true);
            EppCluster.Pick pick = EppCluster.bufferedPick(envoy.next(), client);

            assertThat(pick.endpoint()).as("the client's own destination header is overwritten")
                    .isEqualTo(cluster.address("decode-0"));
            assertThat(pick.metadataEndpoint()).isEqualTo(pick.endpoint());
            assertThat(pick.headers()).containsEntry("x-request-id", "req-7")
                    .containsEntry("content-length", Integer.toString(pick.body().length));
            RecordedRequest prefillLeg = cluster.inference("prefill-0").get(0);
            assertThat(prefillLeg.json().get("max_tokens").asInt()).isEqualTo(1);
            assertThat(prefillLeg.header("x-request-id")).isEqualTo("req-7");
            JsonNode decodeBody = json(pick.body());
            assertThat(pick.bodyChanged()).isTrue();
            assertThat(decodeBody.get("max_tokens").asInt()).isEqualTo(8);
            assertThat(decodeBody.at("/kv_transfer_params/remote_host").asText())
                    .isEqualTo(cluster.sim("prefill-0").host());
            assertThat(cluster.gateway().routing().session().requests().outstanding())
                    .as("the decode's charge is held while Envoy forwards").isPositive();

            HttpResponse<String> decoded = cluster.forward(pick, EppCluster.CHAT);
            assertThat(decoded.statusCode()).as(decoded.body()).isEqualTo(200);
            assertThat(cluster.sim("decode-0").kvMissing()).as("the decode fetched the prefill's KV").isZero();
            envoy.responseHeaders(200, pick.endpoint(), false);
            ProcessingResponse head = envoy.next();
            assertThat(EppCluster.headers(head.getResponseHeaders().getResponse().getHeaderMutation().getSetHeadersList()))
                    .containsEntry("target-pod", "decode-0").containsEntry("prefill-target-pod", "prefill-0")
                    .containsEntry("routing-strategy", "pd").containsEntry("x-request-id", "req-7");
            List<String> pieces = chunks(decoded.body());
            assertThat(pieces).hasSizeGreaterThan(2);
            for (int i = 0; i < pieces.size(); i++) {
                envoy.responseBody(pieces.get(i), i == pieces.size() - 1);
                assertThat(envoy.next().hasResponseBody()).isTrue();
            }
            envoy.responseTrailers();
            assertThat(envoy.next().hasResponseTrailers()).isTrue();
        }
        cluster.assertQuiescent();
        assertThat(cluster.gateway().metrics().scrape())
                .contains("gateway_request_model_success_total{model=\"my-model\",pod_name=\"decode-0\"");
    }

    @Test
    void sglangPairFullDuplexStreamedBody_headersHeldUntilBodyEnd_bootstrapFieldsInBothLegs() throws Exception {
        cluster = new EppCluster("sglang").prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .startPicker(Map.of("ROUTING_ALGORITHM", "pd"));
        byte[] client = EppCluster.chat("hello streamed picker", 6, true).getBytes(StandardCharsets.UTF_8);
        try (EnvoyStream envoy = cluster.envoy(ProcessingMode.BodySendMode.FULL_DUPLEX_STREAMED,
                ProcessingMode.BodySendMode.FULL_DUPLEX_STREAMED)) {
            envoy.requestHeaders(EppCluster.CHAT, Map.of(), null);
            int third = client.length / 3;
            envoy.requestBody(Arrays.copyOfRange(client, 0, third), false);
            envoy.requestBody(Arrays.copyOfRange(client, third, 2 * third), false);
            envoy.requestBody(Arrays.copyOfRange(client, 2 * third, client.length), true);
            // The first answer is the held-back headers answer, carrying the destination: nothing came before it.
            EppCluster.Pick pick = EppCluster.streamedPick(envoy.next(), envoy.next());

            assertThat(pick.endpoint()).isEqualTo(cluster.address("decode-0"));
            JsonNode decodeBody = json(pick.body());
            assertThat(decodeBody.get("bootstrap_host").asText()).isEqualTo(cluster.sim("prefill-0").host());
            assertThat(decodeBody.get("stream").asBoolean()).isTrue();
            HttpResponse<String> decoded = cluster.forward(pick, EppCluster.CHAT);
            assertThat(decoded.statusCode()).as(decoded.body()).isEqualTo(200);
            RecordedRequest prefillLeg = cluster.inference("prefill-0").get(0);
            assertThat(prefillLeg.json().get("bootstrap_room").asLong())
                    .isEqualTo(decodeBody.get("bootstrap_room").asLong());

            envoy.responseHeaders(200, pick.endpoint(), false);
            assertThat(envoy.next().hasResponseHeaders()).isTrue();
            List<String> pieces = chunks(decoded.body());
            for (int i = 0; i < pieces.size(); i++) {
                boolean last = i == pieces.size() - 1;
                envoy.responseBody(pieces.get(i), last);
                var echoed = envoy.next().getResponseBody().getResponse().getBodyMutation().getStreamedResponse();
                assertThat(echoed.getBody().toStringUtf8()).as("FULL_DUPLEX_STREAMED: each chunk handed back")
                        .isEqualTo(pieces.get(i));
                assertThat(echoed.getEndOfStream()).isEqualTo(last);
            }
        }
        cluster.assertQuiescent();
    }

    @Test
    void noCompletePair_standardPodFallback_bodyUnchangedAndNoPrefillHeader() throws Exception {
        cluster = new EppCluster("vllm").prefill("prefill-0", "group-0").standard("standard-0")
                .startPicker(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_PROMPT_LENGTH_BUCKETING", "true"));
        byte[] client = EppCluster.chat("fall back", 4, false).getBytes(StandardCharsets.UTF_8);
        try (EnvoyStream envoy = cluster.buffered()) {
            EppCluster.Pick pick = EppCluster.askBuffered(envoy, client);
            assertThat(pick.endpoint()).isEqualTo(cluster.address("standard-0"));
            assertThat(pick.bodyChanged()).as("a standard pod gets the client's body as sent").isFalse();
            assertThat(cluster.inference("prefill-0")).isEmpty();
            HttpResponse<String> answered = cluster.forward(pick, EppCluster.CHAT);
            assertThat(answered.statusCode()).isEqualTo(200);
            envoy.responseHeaders(200, null, false);
            var set = EppCluster.headers(envoy.next().getResponseHeaders().getResponse().getHeaderMutation()
                    .getSetHeadersList());
            assertThat(set).containsEntry("target-pod", "standard-0").doesNotContainKey("prefill-target-pod");
            envoy.responseBody(answered.body(), true);
            envoy.next();
        }
        cluster.assertQuiescent();
    }

    @Test
    void completionsBatchNoVllmPairCarries_standardPodGetsItWhole() throws Exception {
        cluster = new EppCluster("vllm").prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .standard("standard-0")
                .startPicker(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_PROMPT_LENGTH_BUCKETING", "true"));
        String completions = "/v1/completions";
        byte[] client = ("{\"model\":\"" + EppCluster.MODEL + "\",\"prompt\":[\"first\",\"second\"],"
                + "\"max_tokens\":2}").getBytes(StandardCharsets.UTF_8);
        try (EnvoyStream envoy = cluster.buffered()) {
            EppCluster.Pick pick = EppCluster.askBuffered(envoy, completions, Map.of(), null, client);
            assertThat(pick.endpoint()).isEqualTo(cluster.address("standard-0"));
            assertThat(pick.bodyChanged()).as("the batch goes whole, as the client sent it").isFalse();
            assertThat(cluster.inference("prefill-0")).as("no prefill for a batch the pair cannot carry").isEmpty();
            HttpResponse<String> answered = cluster.forward(pick, completions);
            assertThat(answered.statusCode()).isEqualTo(200);
            envoy.responseHeaders(200, null, false);
            envoy.next();
            envoy.responseBody(answered.body(), true);
            envoy.next();
        }
        cluster.assertQuiescent();
    }

    /**
     * As through serve: a prompt the standard pod refuses (400, over its context length) leaves the pod's cache view as
     * it was, neither cached nor pushing out what the pod holds (its KV cache here is 500 blocks, the prompt 8,700).
     */
    @Test
    void aPromptTheStandardPodRefused_leavesItsCacheViewAsItWas() throws Exception {
        cluster = new EppCluster("vllm").withKvCapacityTokens(8_000).standard("standard-0").startPicker(Map.of(
                "ROUTING_ALGORITHM", "prefix-cache", "PD_GATEWAY_KV_CACHE_CAPACITY_TOKENS", "8000"));
        assertThat(throughThePicker(ORDINARY)).isEqualTo(200);
        await().atMost(5, TimeUnit.SECONDS).until(() -> cluster.cacheBlocks("standard-0") > 0);
        long held = cluster.cacheBlocks("standard-0");

        assertThat(throughThePicker(OVER_CONTEXT)).isEqualTo(400);

        cluster.assertQuiescent();
        assertThat(cluster.cacheBlocks("standard-0")).isEqualTo(held);
    }

    /** The same on a vLLM pair, whose prefill leg the picker runs: the prefill pod's refusal is the client's answer. */
    @Test
    void aPromptThePrefillPodRefused_leavesItsCacheViewAsItWas() throws Exception {
        cluster = new EppCluster("vllm").withKvCapacityTokens(8_000).prefill("prefill-0", "group-0")
                .decode("decode-0", "group-0").startPicker(Map.of("ROUTING_ALGORITHM", "pd",
                        "AIBRIX_PREFILL_SCORE_POLICY", "prefix_cache", "PD_GATEWAY_KV_CACHE_CAPACITY_TOKENS", "8000"));
        assertThat(throughThePicker(ORDINARY)).isEqualTo(200);
        await().atMost(5, TimeUnit.SECONDS).until(() -> cluster.cacheBlocks("prefill-0") > 0);
        long held = cluster.cacheBlocks("prefill-0");

        byte[] client = EppCluster.chat(OVER_CONTEXT, 2, false).getBytes(StandardCharsets.UTF_8);
        try (EnvoyStream envoy = cluster.buffered()) {
            envoy.requestHeaders(EppCluster.CHAT, Map.of(), null);
            envoy.next();
            envoy.requestBody(client, true);
            ProcessingResponse answer = envoy.next();
            assertThat(answer.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(400);
        }

        cluster.assertQuiescent();
        assertThat(cluster.cacheBlocks("prefill-0")).isEqualTo(held);
    }


    /** One buffered request through the picker and the pod it picked; the pod's status. */
    private int throughThePicker(String prompt) throws Exception {
        byte[] client = EppCluster.chat(prompt, 2, false).getBytes(StandardCharsets.UTF_8);
        try (EnvoyStream envoy = cluster.buffered()) {
            HttpResponse<String> answered = cluster.forward(EppCluster.askBuffered(envoy, client),
                    EppCluster.CHAT);
            envoy.responseHeaders(answered.statusCode(), null, false);
            envoy.next();
            envoy.responseBody(answered.body(), true);
            envoy.next();
            return answered.statusCode();
        }
    }

    @Test
    void resetWhileThePrefillRuns_prefillAbortedAndEveryChargeReleased() throws Exception {
        cluster = new EppCluster("vllm").pod("prefill-0", SimRole.PREFILL, "group-0", null,
                FaultConfig.none().withHangBeforeHeaders()).decode("decode-0", "group-0")
                .startPicker(Map.of("ROUTING_ALGORITHM", "pd"));
        try (EnvoyStream envoy = cluster.buffered()) {
            envoy.requestHeaders(EppCluster.CHAT, Map.of(), null);
            envoy.next();
            envoy.requestBody(EppCluster.chat("never prefilled", 4, true).getBytes(StandardCharsets.UTF_8), true);
            await().atMost(10, TimeUnit.SECONDS).until(() -> cluster.sim("prefill-0").openStreams() == 1);
            assertThat(cluster.gateway().routing().session().tokens().outstandingTokens()).isPositive();
            envoy.reset();
        }
        cluster.assertQuiescent();
        assertThat(cluster.gateway().metrics().scrape()).contains("status=\"client_cancel\"");
    }

    @Test
    void resetMidResponseStream_everyChargeReleased() throws Exception {
        cluster = new EppCluster("vllm").prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .startPicker(Map.of("ROUTING_ALGORITHM", "pd"));
        byte[] client = EppCluster.chat("cut short", 8, true).getBytes(StandardCharsets.UTF_8);
        try (EnvoyStream envoy = cluster.buffered()) {
            EppCluster.Pick pick = EppCluster.askBuffered(envoy, client);
            HttpResponse<String> decoded = cluster.forward(pick, EppCluster.CHAT);
            envoy.responseHeaders(200, pick.endpoint(), false);
            envoy.next();
            envoy.responseBody(chunks(decoded.body()).get(0), false);
            envoy.next();
            assertThat(cluster.gateway().routing().session().requests().outstanding()).isPositive();
            envoy.reset();
        }
        cluster.assertQuiescent();
    }

    @Test
    void subsetHint_picksOnlyInsideTheSubset() throws Exception {
        cluster = new EppCluster("vllm").standard("standard-0").standard("standard-1").standard("standard-2")
                .startPicker(Map.of());
        for (int i = 0; i < 6; i++) {
            byte[] client = EppCluster.chat("subset " + i, 2, false).getBytes(StandardCharsets.UTF_8);
            try (EnvoyStream envoy = cluster.buffered()) {
                EppCluster.Pick pick = EppCluster.askBuffered(envoy, EppCluster.CHAT, Map.of(),
                        List.of(cluster.address("standard-1")), client);
                assertThat(pick.endpoint()).isEqualTo(cluster.address("standard-1"));
                envoy.responseHeaders(200, pick.endpoint(), true);
                envoy.next();
            }
        }
        cluster.assertQuiescent();
    }

    @Test
    void subsetHintWithNoEligibleEndpoint_immediate503() throws Exception {
        cluster = new EppCluster("vllm").standard("standard-0").startPicker(Map.of());
        try (EnvoyStream envoy = cluster.buffered()) {
            envoy.requestHeaders(EppCluster.CHAT, Map.of(), List.of("10.1.2.3:8000"));
            envoy.next();
            envoy.requestBody(EppCluster.chat("nowhere", 2, false).getBytes(StandardCharsets.UTF_8), true);
            ProcessingResponse answer = envoy.next();
            assertThat(answer.hasImmediateResponse()).isTrue();
            assertThat(answer.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(503);
            assertThat(json(answer.getImmediateResponse().getBody().toByteArray()).at("/error/message").asText())
                    .isNotEmpty();
        }
        cluster.assertQuiescent();
    }

    @Test
    void noCompletePairNorStandardPod_immediate503WithRetryAfter() throws Exception {
        cluster = new EppCluster("vllm").prefill("prefill-0", "group-0").startPicker(Map.of("ROUTING_ALGORITHM", "pd"));
        try (EnvoyStream envoy = cluster.buffered()) {
            envoy.requestHeaders(EppCluster.CHAT, Map.of(), null);
            envoy.next();
            envoy.requestBody(EppCluster.chat("no pair", 2, false).getBytes(StandardCharsets.UTF_8), true);
            ProcessingResponse answer = envoy.next();
            assertThat(answer.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(503);
            assertThat(json(answer.getImmediateResponse().getBody().toByteArray()).at("/error/code").asText())
                    .isEqualTo("no_complete_pair");
            assertThat(EppCluster.headers(answer.getImmediateResponse().getHeaders().getSetHeadersList()))
                    .as("as serve answers it").containsEntry("retry-after", "1");
        }
        cluster.assertQuiescent();
    }

    @Test
    void unknownModel_immediate404WithServesError() throws Exception {
        cluster = new EppCluster("vllm").standard("standard-0").startPicker(Map.of());
        try (EnvoyStream envoy = cluster.buffered()) {
            envoy.requestHeaders(EppCluster.CHAT, Map.of(), null);
            envoy.next();
            envoy.requestBody("{\"model\":\"nope\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}"
                    .getBytes(StandardCharsets.UTF_8), true);
            ProcessingResponse answer = envoy.next();
            assertThat(answer.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(404);
            assertThat(json(answer.getImmediateResponse().getBody().toByteArray()).at("/error/code").asText())
                    .isEqualTo("model_not_found");
        }
        cluster.assertQuiescent();
    }
}
