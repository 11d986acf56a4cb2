package io.pdgateway.engine.sglang;

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
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SGLang leg bodies (reference §1.3 and upstream scenario #28): the bootstrap triple and rid in both bodies, client
 * values overwritten, the client's generation options kept on the decode leg and rewritten on the prefill leg,
 * messages and tools byte-identical, and validation refusing what a byte edit cannot carry.
 */
class SglangAdapterTest {
    private static final String CLIENT = "{\"model\": \"m\", \"messages\": [{\"role\":\"user\",\"content\":\"h\u00e9 \\\"x\\\"\"}],"
            + " \"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"parameters\":{\"a\":1.50}}}],"
            + " \"max_tokens\": 256, \"stream\": true, \"stream_options\": {\"include_usage\": true}, \"min_tokens\": 10,"
            + " \"bootstrap_host\": \"evil\", \"bootstrap_room\": 7, \"seed\": 9007199254740993}";
    private static final Pod PREFILL = new Pod("ns", "p", "m", "10.0.0.7", 8000, 8000, "sglang", PodRole.PREFILL, "rs",
            null, 9100, null, Map.of());
    private static final Pod DECODE = new Pod("ns", "d", "m", "10.0.0.8", 8000, 8000, "sglang", PodRole.DECODE, "rs",
            null, 8998, null, Map.of());

    private static LegRequest request(String body) throws Exception {
        byte[] raw = body.getBytes(StandardCharsets.UTF_8);
        return new LegRequest("/v1/chat/completions", raw, null, PREFILL, DECODE, "shfs",
                "req-9", null);
    }

    private static JsonNode json(byte[] body) throws Exception {
        return JsonBodies.mapper().readTree(body);
    }

    @Test
    void plan_bootstrapTripleSharedAndOverwritten_concurrent() throws Exception {
        LegPlan plan = new SglangAdapter(new SplittableRandom(1)).plan(request(CLIENT));
        JsonNode prefill = json(plan.prefillBody());
        JsonNode decode = json(plan.decodeBody());

        assertThat(plan.schedule()).isEqualTo(LegSchedule.CONCURRENT);
        for (JsonNode body : new JsonNode[] {prefill, decode}) {
            assertThat(body.get("bootstrap_host").asText()).isEqualTo("10.0.0.7");
            assertThat(body.get("bootstrap_port").asInt()).as("the prefill pod's annotation").isEqualTo(9100);
        }
        long room = decode.get("bootstrap_room").asLong();
        assertThat(room).isNotEqualTo(7).isBetween(0L, Long.MAX_VALUE - 1);
        assertThat(prefill.get("bootstrap_room").asLong()).isEqualTo(room);
    }

    @Test
    void plan_decodeKeepsClientOptions_prefillIsOneTokenNoStream() throws Exception {
        LegPlan plan = new SglangAdapter(new SplittableRandom(1)).plan(request(CLIENT));
        JsonNode prefill = json(plan.prefillBody());
        JsonNode decode = json(plan.decodeBody());

        assertThat(decode.get("max_tokens").asInt()).isEqualTo(256);
        assertThat(decode.get("stream").asBoolean()).isTrue();
        assertThat(decode.get("stream_options").get("include_usage").asBoolean()).isTrue();
        assertThat(decode.get("min_tokens").asInt()).isEqualTo(10);
        assertThat(decode.has("max_completion_tokens")).as("no key the client did not send").isFalse();
        assertThat(prefill.get("max_tokens").asInt()).isEqualTo(1);
        assertThat(prefill.get("max_completion_tokens").asInt()).isEqualTo(1);
        assertThat(prefill.get("stream").asBoolean()).isFalse();
        assertThat(prefill.has("stream_options")).isFalse();
        assertThat(prefill.has("min_tokens")).isFalse();
    }

    @Test
    void plan_messagesToolsAndNumbersByteIdentical() throws Exception {
        LegPlan plan = new SglangAdapter(new SplittableRandom(1)).plan(request(CLIENT));
        TopLevelJson client = TopLevelJson.parse(CLIENT.getBytes(StandardCharsets.UTF_8));
        for (byte[] body : new byte[][] {plan.prefillBody(), plan.decodeBody()}) {
            TopLevelJson leg = TopLevelJson.parse(body);
            for (String key : new String[] {"messages", "tools", "seed", "model"}) {
                assertThat(leg.rawValue(key)).as(key).isEqualTo(client.rawValue(key));
            }
        }
        // Everything before the first edited key is the client's bytes, blanks included.
        String decode = new String(plan.decodeBody(), StandardCharsets.UTF_8);
        assertThat(decode).startsWith(CLIENT.substring(0, CLIENT.indexOf(", \"bootstrap_host\"")));
    }

    @Test
    void plan_sameSeed_sameBytes_sha256StableOver100Runs() throws Exception {
        Set<String> digests = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            LegPlan plan = new SglangAdapter(new SplittableRandom(42)).plan(request(CLIENT));
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(plan.prefillBody());
            sha.update(plan.decodeBody());
            digests.add(HexFormat.of().formatHex(sha.digest()));
        }
        assertThat(digests).hasSize(1);
    }

    @Test
    void plan_roomsDifferPerRequest_andStayInInt63Range() throws Exception {
        SglangAdapter adapter = new SglangAdapter(new SplittableRandom(3));
        Set<Long> rooms = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            long room = json(adapter.plan(request(CLIENT)).decodeBody()).get("bootstrap_room").asLong();
            assertThat(room).isBetween(0L, Long.MAX_VALUE - 1);
            rooms.add(room);
        }
        assertThat(rooms).hasSize(1000);
    }

    @Test
    void plan_noClientRid_ridFromRequestIdAndRoom_inBothBodiesAndAbortCall() throws Exception {
        LegPlan plan = new SglangAdapter(new SplittableRandom(1)).plan(request(CLIENT));
        JsonNode decode = json(plan.decodeBody());
        String rid = decode.get("rid").asText();
        assertThat(rid).isEqualTo("req-9-" + Long.toHexString(decode.get("bootstrap_room").asLong()));
        assertThat(json(plan.prefillBody()).get("rid").asText()).isEqualTo(rid);
        assertThat(plan.decodeAbort().path()).isEqualTo("/abort_request");
        assertThat(json(plan.decodeAbort().body()).get("rid").asText()).isEqualTo(rid);
        assertThat(plan.prefillAbort()).isEqualTo(plan.decodeAbort());
    }

    @Test
    void plan_clientRidKept() throws Exception {
        LegPlan plan = new SglangAdapter(new SplittableRandom(1))
                .plan(request("{\"model\":\"m\",\"rid\":\"mine\",\"messages\":[]}"));
        assertThat(json(plan.decodeBody()).get("rid").asText()).isEqualTo("mine");
        assertThat(json(plan.decodeAbort().body()).get("rid").asText()).isEqualTo("mine");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
        "{\"model\":\"m\",\"bootstrap_host\":\"a\",\"bootstrap_host\":\"b\"}",
        "{\"model\":\"m\",\"stream\":true,\"stream\":false}",
        "{\"model\":\"m\",\"max_tokens\":1,\"max_tokens\":2}",
        "{\"model\":\"m\",\"rid\":[\"a\",\"b\"]}",
        "{\"model\":\"m\",",
        "[{\"model\":\"m\"}]"})
    void validate_refusesBeforeSelection(String body) {
        assertThatThrownBy(() -> new SglangAdapter(new SplittableRandom(1))
                .admit(TopLevelJson.parse(body.getBytes(StandardCharsets.UTF_8))))
                .isInstanceOf(EngineProtocolException.class);
    }

    @Test
    void validate_otherDuplicateKeysAllowed() throws Exception {
        new SglangAdapter(new SplittableRandom(1))
                .admit(TopLevelJson.parse("{\"model\":\"m\",\"user\":\"a\",\"user\":\"b\"}"
                        .getBytes(StandardCharsets.UTF_8)));
    }
}
