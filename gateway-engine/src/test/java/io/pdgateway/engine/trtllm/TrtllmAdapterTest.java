package io.pdgateway.engine.trtllm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.JsonBodies;
import io.pdgateway.engine.LegPlan;
import io.pdgateway.engine.LegRequest;
import io.pdgateway.engine.LegSchedule;
import io.pdgateway.engine.TopLevelJson;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * TensorRT-LLM leg bodies (reference §1.4, upstream scenarios #10, #14, #32; spec "TensorRT-LLM Parallel
 * Scheduling"): context_only with a Snowflake id, generation_only from the context's answer, prompt_token_ids routed by
 * path, no max_completion_tokens on either leg, generation_first's shared id and worker metadata, and 64-bit integers
 * kept to the last digit.
 */
class TrtllmAdapterTest {
    private static final String CHAT = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
            + "\"max_completion_tokens\":64,\"stream\":true,\"stream_options\":{\"include_usage\":true},"
            + "\"temperature\":0.70,\"seed\":9007199254740993}";
    private static final Pod CTX = new Pod("ns", "ctx", "m", "10.0.0.7", 8000, 8000, "trtllm", PodRole.PREFILL, "rs",
            null, 8998, null, Map.of());
    private static final Pod GEN = new Pod("ns", "gen", "m", "10.0.0.8", 8000, 8000, "trtllm", PodRole.DECODE, "rs",
            null, 8998, null, Map.of());
    /** One second after the Snowflake epoch, machine 0, counter 0: id = (1000 << 22) + 2^42. */
    private static final long FIRST_ID = (1000L << 22) + (1L << 42);

    private static TrtllmAdapter adapter(boolean generationFirst) {
        return new TrtllmAdapter(generationFirst,
                new TrtRequestIds(0, InstantSource.fixed(Instant.ofEpochMilli(TrtRequestIds.EPOCH_MILLIS + 1000))));
    }

    private static LegRequest request(String path, String body) throws Exception {
        byte[] raw = body.getBytes(StandardCharsets.UTF_8);
        return new LegRequest(path, raw, null, CTX, GEN, "shfs", "req-1", null);
    }

    private static JsonNode json(byte[] body) throws Exception {
        return JsonBodies.mapper().readTree(body);
    }

    private static String text(byte[] body) {
        return new String(body, StandardCharsets.UTF_8);
    }

    @Test
    void contextFirst_prefill_contextOnlyWithId_oneToken_noMaxCompletionTokens() throws Exception {
        LegPlan plan = adapter(false).plan(request("/v1/chat/completions", CHAT));
        JsonNode prefill = json(plan.prefillBody());

        assertThat(plan.schedule()).isEqualTo(LegSchedule.SEQUENTIAL);
        assertThat(plan.decodeBody()).isNull();
        assertThat(prefill.get("disaggregated_params").toString())
                .isEqualTo("{\"request_type\":\"context_only\",\"disagg_request_id\":" + FIRST_ID + "}");
        assertThat(prefill.get("max_tokens").asInt()).isEqualTo(1);
        assertThat(prefill.has("max_completion_tokens")).isFalse();
        assertThat(prefill.get("stream").asBoolean()).isFalse();
        assertThat(prefill.has("stream_options")).isFalse();
        assertThat(text(plan.prefillBody())).contains("\"temperature\":0.70").contains("\"seed\":9007199254740993");
        assertThat(plan.prefillAbort()).as("no abort endpoint: closing the connection cancels").isNull();
    }

    /** A context answer, where its disaggregated_params sit, and what the generation leg must carry. */
    record Merge(String name, String path, String response, String expectedParams, String expectedPromptKey) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final String PARAMS = "{\"request_type\":\"context_only\",\"first_gen_tokens\":[42],"
            + "\"ctx_request_id\":9223372036854775806,\"encoded_opaque_state\":\"b3BhcXVl\",\"draft_tokens\":null,"
            + "\"disagg_request_id\":" + FIRST_ID + "}";
    private static final String GENERATION_PARAMS = PARAMS.replace("context_only", "generation_only");

    static Stream<Merge> merges() {
        return Stream.of(
                new Merge("params at the top level", "/v1/chat/completions",
                        "{\"id\":\"c\",\"disaggregated_params\":" + PARAMS + ",\"prompt_token_ids\":[1,2,3]}",
                        GENERATION_PARAMS, "prompt_token_ids"),
                new Merge("params in choices[0] (TensorRT-LLM's own shape)", "/v1/chat/completions",
                        "{\"id\":\"c\",\"choices\":[{\"index\":0,\"disaggregated_params\":" + PARAMS + "}],"
                                + "\"prompt_token_ids\":[1,2,3]}",
                        GENERATION_PARAMS, "prompt_token_ids"),
                new Merge("completions: the ids replace the prompt", "/v1/completions",
                        "{\"choices\":[{\"disaggregated_params\":" + PARAMS + "}],\"prompt_token_ids\":[1,2,3]}",
                        GENERATION_PARAMS, "prompt"),
                new Merge("no params: the client's body", "/v1/chat/completions", "{\"id\":\"c\",\"choices\":[]}",
                        null, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("merges")
    void contextFirst_decodeBody(Merge merge) throws Exception {
        String client = merge.path().equals("/v1/completions") ? CHAT.replace("\"messages\":[{\"role\":\"user\","
                + "\"content\":\"hi\"}]", "\"prompt\":\"hi\"") : CHAT;
        TrtllmAdapter adapter = adapter(false);
        LegRequest request = request(merge.path(), client);
        byte[] body = adapter.decodeBody(request, adapter.plan(request),
                merge.response().getBytes(StandardCharsets.UTF_8));
        JsonNode decode = json(body);
        TopLevelJson edited = TopLevelJson.parse(body);

        if (merge.expectedParams() == null) {
            assertThat(decode.has("disaggregated_params")).isFalse();
        } else {
            // Verbatim, 64-bit ids included, with only request_type changed.
            assertThat(text(edited.rawValue("disaggregated_params"))).isEqualTo(merge.expectedParams());
        }
        if (merge.expectedPromptKey() != null) {
            assertThat(text(edited.rawValue(merge.expectedPromptKey()))).isEqualTo("[1,2,3]");
        }
        assertThat(decode.get("stream").asBoolean()).as("the client's own options").isTrue();
        assertThat(decode.get("stream_options")).isNotNull();
        assertThat(decode.has("max_completion_tokens")).isFalse();
        assertThat(decode.get("max_tokens").asInt()).as("the client's limit, under the key TRT accepts").isEqualTo(64);
        assertThat(text(body)).contains("\"seed\":9007199254740993").contains("\"temperature\":0.70");
    }

    @Test
    void contextFirst_paramsNotAnObject_protocolError() throws Exception {
        TrtllmAdapter adapter = adapter(false);
        LegRequest request = request("/v1/chat/completions", CHAT);
        assertThatThrownBy(() -> adapter.decodeBody(request, adapter.plan(request),
                "{\"disaggregated_params\":\"oops\"}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(EngineProtocolException.class).hasMessageContaining("disaggregated_params is a JSON string, expected an object");
    }

    @Test
    void maxTokensAndMaxCompletionTokens_clientMaxTokensWins() throws Exception {
        TrtllmAdapter adapter = adapter(false);
        LegRequest request = request("/v1/chat/completions",
                "{\"model\":\"m\",\"messages\":[],\"max_tokens\":5,\"max_completion_tokens\":64}");
        JsonNode decode = json(adapter.decodeBody(request, adapter.plan(request), "{}".getBytes(StandardCharsets.UTF_8)));
        assertThat(decode.get("max_tokens").asInt()).isEqualTo(5);
        assertThat(decode.has("max_completion_tokens")).isFalse();
    }

    @Test
    void generationFirst_sharedIdScheduleStyleAndWorkerMetadata_concurrent() throws Exception {
        TrtllmAdapter adapter = adapter(true);
        assertThat(adapter.prerequisite().path()).isEqualTo("/server_info");
        LegPlan plan = adapter.plan(request("/v1/chat/completions", CHAT)
                .withPrerequisite(new TrtServerInfo("tcp://10.0.0.7:5000", 0, "c3RhdGU=")));

        assertThat(plan.schedule()).isEqualTo(LegSchedule.CONCURRENT);
        assertThat(text(TopLevelJson.parse(plan.prefillBody()).rawValue("disaggregated_params"))).isEqualTo(
                "{\"request_type\":\"context_only\",\"disagg_request_id\":" + FIRST_ID + ",\"schedule_style\":1}");
        assertThat(text(TopLevelJson.parse(plan.decodeBody()).rawValue("disaggregated_params"))).isEqualTo(
                "{\"request_type\":\"generation_only\",\"disagg_request_id\":" + FIRST_ID + ",\"ctx_request_id\":"
                        + FIRST_ID + ",\"schedule_style\":1,\"ctx_info_endpoint\":\"tcp://10.0.0.7:5000\","
                        + "\"ctx_dp_rank\":0,\"encoded_opaque_state\":\"c3RhdGU=\"}");
        JsonNode prefill = json(plan.prefillBody());
        assertThat(prefill.get("max_tokens").asInt()).isEqualTo(1);
        assertThat(prefill.has("max_completion_tokens")).isFalse();
        JsonNode decode = json(plan.decodeBody());
        assertThat(decode.get("stream").asBoolean()).isTrue();
        assertThat(decode.get("max_tokens").asInt()).isEqualTo(64);
        assertThat(adapter.decodeBody(null, plan, null)).isSameAs(plan.decodeBody());
    }

    @Test
    void generationFirst_withoutServerInfo_failsBeforeAnyLeg() {
        assertThatThrownBy(() -> adapter(true).plan(request("/v1/chat/completions", CHAT)))
                .isInstanceOf(EngineProtocolException.class).hasMessageContaining("/server_info");
    }

    @Test
    void contextFirst_needsNoServerInfo() {
        assertThat(adapter(false).prerequisite()).isNull();
    }

    /** A /server_info document and what it yields: the metadata, or the refusal's message. */
    record Info(String name, String body, TrtServerInfo expected, String error) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Info> serverInfos() {
        return Stream.of(
                new Info("endpoint string", "{\"disaggregated_params\":{\"ctx_info_endpoint\":\"tcp://1.2.3.4:5\","
                        + "\"ctx_dp_rank\":0}}", new TrtServerInfo("tcp://1.2.3.4:5", 0, null), null),
                new Info("one-element endpoint list and opaque state", "{\"version\":\"1.3.0rc8\",\"disaggregated_params\":"
                        + "{\"ctx_info_endpoint\":[\"tcp://a:1\"],\"ctx_dp_rank\":2,\"encoded_opaque_state\":\"eA==\"}}",
                        new TrtServerInfo("tcp://a:1", 2, "eA=="), null),
                new Info("C++ transceiver: empty params", "{\"disaggregated_params\":{}}", null, "Python KV-cache"),
                new Info("no params at all", "{\"version\":\"x\"}", null, "ctx_dp_rank"),
                new Info("two endpoints", "{\"disaggregated_params\":{\"ctx_info_endpoint\":[\"a\",\"b\"],"
                        + "\"ctx_dp_rank\":0}}", null, "lists 2"),
                new Info("no endpoint", "{\"disaggregated_params\":{\"ctx_dp_rank\":0}}", null, "ctx_info_endpoint"),
                new Info("negative rank", "{\"disaggregated_params\":{\"ctx_info_endpoint\":\"a\",\"ctx_dp_rank\":-1}}",
                        null, "ctx_dp_rank"),
                new Info("not JSON", "<html>", null, "JSON"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("serverInfos")
    void serverInfo_parse(Info info) throws Exception {
        byte[] body = info.body().getBytes(StandardCharsets.UTF_8);
        if (info.expected() != null) {
            assertThat(adapter(true).prerequisite().parser().parse(body)).isEqualTo(info.expected());
        } else {
            assertThatThrownBy(() -> adapter(true).prerequisite().parser().parse(body))
                    .isInstanceOf(EngineProtocolException.class).hasMessageContaining(info.error());
        }
    }
}
