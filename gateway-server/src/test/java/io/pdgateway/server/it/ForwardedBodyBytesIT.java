package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.engine.JsonBodies;
import io.pdgateway.sim.RecordedRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * What a pod receives of a client's body, over real sockets. A standard pod gets the client's bytes exactly as sent
 * (the gateway reads only what routing needs and never writes the body back): unicode raw and escaped, escapes,
 * numbers with exponents and 64-bit integers, duplicate keys, odd whitespace and a 200 KB prompt. A vLLM prefill/decode
 * pair's legs are the client's bytes with the engine's own fields edited in place or added last.
 */
class ForwardedBodyBytesIT {
    /** Everything a rewrite through a tree or a re-serialiser would change. */
    private static final String AWKWARD = "{ \"model\" : \"" + TestCluster.MODEL + "\",\n\t\"messages\":[{\"role\":\"user\","
            + "\"content\":\"caf\u00e9 \\u00e9 \u4e2d\u6587 \uD83D\uDE00 \\ud83d\\ude00 \\\"quoted\\\" \\\\ \\/ \\n\"}],"
            + "\"temperature\":0.70,\"top_p\":1.0E0,\"presence_penalty\":-0.0,\"frequency_penalty\":2e-1,"
            + "\"seed\":9007199254740993,\"user\":\"first\",\"user\":\"second\",\"max_tokens\":4,"
            + "\"stream\":true , \"logit_bias\":{\"50256\":-100} }  ";

    @AutoClose
    private TestCluster cluster;

    @Test
    void standardPod_receivesTheClientsBytesExactly() throws Exception {
        cluster = new TestCluster().standard("standard-0").startGateway(Map.of("ROUTING_ALGORITHM", "random"));
        String large = "{\"model\":\"" + TestCluster.MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":\""
                + "abc \\u00e9 ".repeat(20_000) + "\"}],\"max_tokens\":2,\"stream\":false}";

        HttpResponse<String> awkward = cluster.post("/v1/chat/completions", AWKWARD);
        HttpResponse<String> big = cluster.post("/v1/chat/completions", large);

        assertThat(awkward.statusCode()).as(awkward.body()).isEqualTo(200);
        assertThat(big.statusCode()).as(big.body()).isEqualTo(200);
        assertThat(cluster.inferenceRequests("standard-0")).extracting(RecordedRequest::body)
                .containsExactly(AWKWARD, large);
        assertThat(large.length()).isGreaterThan(200_000);
    }

    @Test
    void vllmPair_rewrittenLegsKeepEveryClientFieldAndAddTheEnginesOwn() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd"));

        HttpResponse<String> response = cluster.post("/v1/chat/completions", AWKWARD);

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        ObjectNode client = JsonBodies.parseObject(AWKWARD.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        ObjectNode decode = json(cluster.inferenceRequests("decode-0").get(0));
        ObjectNode prefill = json(cluster.inferenceRequests("prefill-0").get(0));
        assertThat(decode.get("kv_transfer_params").get("remote_host").asText()).isNotBlank();
        assertThat(prefill.get("kv_transfer_params").get("do_remote_decode").asBoolean()).isTrue();
        assertThat(prefill.get("max_tokens").asInt()).isEqualTo(1);
        assertThat(prefill.get("stream").asBoolean()).isFalse();
        client.fieldNames().forEachRemaining(field -> {
            assertThat(decode.get(field)).as("decode leg " + field).isEqualTo(client.get(field));
            if (!field.equals("max_tokens") && !field.equals("stream")) {
                assertThat(prefill.get(field)).as("prefill leg " + field).isEqualTo(client.get(field));
            }
        });
        assertThat(decode.get("messages").get(0).get("content").asText()).startsWith("caf\u00e9 \u00e9 \u4e2d\u6587 "
                + "\uD83D\uDE00 \uD83D\uDE00 \"quoted\" \\ / \n");
        assertThat(decode.get("seed").bigIntegerValue()).hasToString("9007199254740993");
        assertThat(decode.get("temperature").decimalValue()).hasToString("0.70");
        assertThat(decode.get("user").asText()).isEqualTo("second");
        // Byte for byte: the legs are the client's bytes with the engine's members edited in place or added last.
        String members = AWKWARD.substring(0, AWKWARD.lastIndexOf(" }  "));
        assertThat(cluster.inferenceRequests("decode-0").get(0).body())
                .startsWith(members + ",\"kv_transfer_params\":{").endsWith("} }  ");
        assertThat(cluster.inferenceRequests("prefill-0").get(0).body())
                .startsWith(AWKWARD.substring(0, AWKWARD.indexOf("\"max_tokens\":4")) + "\"max_tokens\":1,"
                        + "\"stream\":false , \"logit_bias\":{\"50256\":-100},\"max_completion_tokens\":1,")
                .endsWith("} }  ");
    }

    private static ObjectNode json(RecordedRequest request) throws Exception {
        JsonNode node = JsonBodies.parse(request.body().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return (ObjectNode) node;
    }
}
