package io.pdgateway.engine.vllm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.JsonBodies;
import io.pdgateway.engine.LegRequest;
import io.pdgateway.engine.TopLevelJson;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** vLLM leg bodies for both connectors, as reference §1.2 and upstream tests #10, #12, #13, #32 describe them. */
class VllmAdapterTest {
    private static final String CLIENT = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
            + "\"max_tokens\":256,\"stream\":true,\"stream_options\":{\"include_usage\":true},\"min_tokens\":10,"
            + "\"temperature\":0.70,\"seed\":9007199254740993}";
    private final VllmAdapter adapter = new VllmAdapter();

    private static Pod prefill(String connectorLabel) {
        return new Pod("ns", "p", "m", "192.168.1.100", 8000, 8000, "vllm", PodRole.PREFILL, "rs", connectorLabel,
                8998, null, Map.of());
    }

    private static final Pod DECODE = new Pod("ns", "d", "m", "192.168.1.101", 8000, 8000, "vllm", PodRole.DECODE,
            "rs", null, 8998, null, Map.of());

    /** The request as the gateway plans it: with the body admission read. */
    private LegRequest request(String connectorLabel, String gatewayDefault) throws Exception {
        return request(CLIENT, connectorLabel, gatewayDefault);
    }

    private LegRequest request(String client, String connectorLabel, String gatewayDefault) throws Exception {
        byte[] raw = client.getBytes(StandardCharsets.UTF_8);
        return new LegRequest("/v1/chat/completions", raw, adapter.admit(TopLevelJson.parse(raw)),
                prefill(connectorLabel), DECODE, gatewayDefault, "req-1", null);
    }

    private static JsonNode json(byte[] body) throws Exception {
        return JsonBodies.mapper().readTree(body);
    }

    @Test
    void shfsPrefill_oneTokenNoStream_withKvRequest() throws Exception {
        JsonNode body = json(adapter.plan(request(null, "shfs")).prefillBody());
        assertThat(body.get("max_tokens").asInt()).isEqualTo(1);
        assertThat(body.get("max_completion_tokens").asInt()).isEqualTo(1);
        assertThat(body.get("stream").asBoolean()).isFalse();
        assertThat(body.has("stream_options")).isFalse();
        assertThat(body.has("min_tokens")).isFalse();
        assertThat(body.get("kv_transfer_params").toString()).isEqualTo("{\"do_remote_decode\":true,"
                + "\"do_remote_prefill\":false,\"remote_engine_id\":null,\"remote_block_ids\":null,"
                + "\"remote_host\":null,\"remote_port\":null}");
        // Nothing the client sent is lost or rounded.
        assertThat(new String(adapter.plan(request(null, "shfs")).prefillBody(), StandardCharsets.UTF_8))
                .contains("\"temperature\":0.70").contains("\"seed\":9007199254740993");
    }

    @Test
    void shfsDecode_clientBodyPlusReturnedParams_remoteHostIsPrefillIp() throws Exception {
        byte[] response = ("{\"id\":\"x\",\"kv_transfer_params\":{\"do_remote_prefill\":true,\"remote_engine_id\":\"e1\","
                + "\"remote_block_ids\":[1,2],\"remote_host\":\"localhost\",\"remote_port\":5600}}")
                .getBytes(StandardCharsets.UTF_8);
        JsonNode body = json(adapter.decodeBody(request(null, "shfs"), null, response));
        assertThat(body.get("kv_transfer_params").get("remote_host").asText()).isEqualTo("192.168.1.100");
        assertThat(body.get("kv_transfer_params").get("remote_block_ids").toString()).isEqualTo("[1,2]");
        assertThat(body.get("max_tokens").asInt()).isEqualTo(256);
        assertThat(body.get("stream").asBoolean()).isTrue();
        assertThat(body.get("min_tokens").asInt()).isEqualTo(10);
        assertThat(body.has("disagg_prefill_resp")).isFalse();
    }

    @Test
    void shfsDecode_noKvInResponse_clientBodyUnchanged() throws Exception {
        JsonNode body = json(adapter.decodeBody(request(null, "shfs"), null,
                "{\"id\":\"x\"}".getBytes(StandardCharsets.UTF_8)));
        assertThat(body).isEqualTo(json(CLIENT.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void shfsDecode_kvNotAnObject_protocolError() {
        assertThatThrownBy(() -> adapter.decodeBody(request(null, "shfs"), null,
                "{\"kv_transfer_params\":\"oops\"}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(EngineProtocolException.class).hasMessageContaining("kv_transfer_params");
    }

    @Test
    void decode_prefillAnswerNotJson_protocolError() {
        assertThatThrownBy(() -> adapter.decodeBody(request(null, "shfs"), null, "<html>".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(EngineProtocolException.class);
    }

    @Test
    void nixl_prefillHasNoKvField_decodeGetsWholeResponse() throws Exception {
        JsonNode prefill = json(adapter.plan(request("nixl", "shfs")).prefillBody());
        assertThat(prefill.has("kv_transfer_params")).isFalse();
        byte[] response = "{\"id\":\"x\",\"choices\":[]}".getBytes(StandardCharsets.UTF_8);
        JsonNode decode = json(adapter.decodeBody(request("nixl", "shfs"), null, response));
        assertThat(decode.get("disagg_prefill_resp")).isEqualTo(json(response));
        assertThat(decode.has("kv_transfer_params")).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"shfs", "nixl"})
    void clientKvLocationFields_neverReachEitherLeg(String connector) throws Exception {
        String client = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
                + "\"kv_transfer_params\":{\"do_remote_prefill\":true,\"remote_host\":\"203.0.113.9\","
                + "\"remote_port\":80},\"disagg_prefill_resp\":{\"kv_transfer_params\":{\"remote_host\":\"203.0.113.9\"}}}";
        byte[] raw = client.getBytes(StandardCharsets.UTF_8);
        // Not admitted: the adapter reads the raw body itself (how a caller without an admission step plans).
        LegRequest request = new LegRequest("/v1/chat/completions", raw, null, prefill(connector), DECODE, "shfs",
                "req-1", null);

        String prefillBody = new String(adapter.plan(request).prefillBody(), StandardCharsets.UTF_8);
        String decodeBody = new String(adapter.decodeBody(request, null, "{\"id\":\"x\"}".getBytes(StandardCharsets.UTF_8)),
                StandardCharsets.UTF_8);

        assertThat(prefillBody).doesNotContain("203.0.113.9");
        assertThat(decodeBody).doesNotContain("203.0.113.9");
    }

    @Test
    void bothLegs_keepTheClientsBytes_exceptTheMembersTheGatewayOwns() throws Exception {
        // Key order, blanks, escapes and number spellings as sent: the engine tokenizes what the client wrote.
        String client = "{ \"messages\": [{\"role\":\"user\", \"content\":\"caf\\u00e9 1e3\"}],\n"
                + "  \"temperature\": 7.0E-1, \"model\": \"m\", \"stream\": true, \"max_tokens\": 64 }";
        LegRequest request = request(client, null, "shfs");
        String prefill = new String(adapter.plan(request).prefillBody(), StandardCharsets.UTF_8);
        assertThat(prefill).startsWith("{ \"messages\": [{\"role\":\"user\", \"content\":\"caf\\u00e9 1e3\"}],\n"
                + "  \"temperature\": 7.0E-1, \"model\": \"m\", \"stream\": false, \"max_tokens\": 1");
        byte[] answer = ("{\"id\":\"x\", \"kv_transfer_params\": {\"remote_block_ids\": [1, 2],"
                + " \"remote_host\": \"localhost\", \"remote_port\": 5600}}\n").getBytes(StandardCharsets.UTF_8);
        String decode = new String(adapter.decodeBody(request, null, answer), StandardCharsets.UTF_8);
        assertThat(decode).isEqualTo("{ \"messages\": [{\"role\":\"user\", \"content\":\"caf\\u00e9 1e3\"}],\n"
                + "  \"temperature\": 7.0E-1, \"model\": \"m\", \"stream\": true, \"max_tokens\": 64,"
                + "\"kv_transfer_params\":{\"remote_block_ids\": [1, 2], \"remote_host\": \"192.168.1.100\","
                + " \"remote_port\": 5600} }");
    }

    @Test
    void nixl_responseWithBlanksAround_embeddedAsTheValue() throws Exception {
        byte[] response = "\n {\"id\":\"x\",\"kv_transfer_params\":null} \r\n".getBytes(StandardCharsets.UTF_8);
        String decode = new String(adapter.decodeBody(request("nixl", "shfs"), null, response), StandardCharsets.UTF_8);
        assertThat(decode).endsWith(",\"disagg_prefill_resp\":{\"id\":\"x\",\"kv_transfer_params\":null}}");
    }

    @Test
    void shfsDecode_kvNull_clientBodyUnchanged() throws Exception {
        byte[] decode = adapter.decodeBody(request(null, "shfs"), null,
                "{\"id\":\"x\",\"kv_transfer_params\":null}".getBytes(StandardCharsets.UTF_8));
        assertThat(new String(decode, StandardCharsets.UTF_8)).isEqualTo(CLIENT);
    }

    @Test
    void shfsDecode_kvAnArray_protocolErrorNamesTheKind() {
        assertThatThrownBy(() -> adapter.decodeBody(request(null, "shfs"), null,
                "{\"kv_transfer_params\":[1]}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(EngineProtocolException.class)
                .hasMessage("prefill response kv_transfer_params is a JSON array, expected an object");
    }

    @ParameterizedTest(name = "label {0}, default {1} → {2}")
    @CsvSource(nullValues = "null", value = {"null, shfs, SHFS", "'', nixl, NIXL", "nixl, shfs, NIXL", "ShFs, nixl, SHFS",
        "invalid, nixl, NIXL", "invalid, bogus, SHFS"})
    void connector_labelOverGatewayDefault(String label, String gatewayDefault, KvConnector expected) {
        assertThat(KvConnector.resolve(label, gatewayDefault)).isEqualTo(expected);
    }
}
