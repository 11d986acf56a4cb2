package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdgateway.server.GatewayServer;
import io.pdgateway.sim.RecordedRequest;
import io.vertx.core.net.NetServer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The doors a gateway keeps shut: with client API keys configured every request but the probes and the scrape needs
 * "Authorization: Bearer KEY" (401 OpenAI-style otherwise) and the client's key never reaches a pod; without keys
 * the Authorization header passes on as before; debug endpoints answer only when enabled; no header, body field or
 * request target can make the gateway (or, through it, a pod) contact a host that discovery did not name; and the
 * Redis password is sent (a server started with --requirepass shares state with a replica that knows it and
 * degrades, without failing requests, for one that does not).
 */
class AccessControlIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHAT = "/v1/chat/completions";
    /** Far above the addresses TestCluster hands its pods, so no pod ever listens there. */
    private static final String TRAP_HOST = "127.0.250.7";
    private TestCluster cluster;
    private RedisProcess redis;
    private NetServer trap;

    @AfterEach
    void tearDown() {
        if (trap != null) {
            trap.close().await();
        }
        if (cluster != null) {
            cluster.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    private TestCluster pair(String engine, Map<String, String> env) throws Exception {
        return new TestCluster(engine).prefill("prefill-0", "group-0").decode("decode-0", "group-0").startGateway(env);
    }

    private HttpResponse<String> get(String path, String authorization) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(cluster.uri(path)).timeout(Duration.ofSeconds(10));
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return cluster.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void keysRequired_missingOrWrongKey_401OpenAiStyle_noPodCalled() throws Exception {
        cluster = pair("vllm", Map.of("ROUTING_ALGORITHM", "pd", "PD_GATEWAY_API_KEYS", "sk-test-1,sk-test-2"));

        HttpResponse<String> missing = cluster.post(CHAT, TestCluster.chat("x", 2, false));
        HttpResponse<String> wrong = cluster.post(CHAT, TestCluster.chat("x", 2, false), "Authorization",
                "Bearer sk-test-3");

        for (HttpResponse<String> response : java.util.List.of(missing, wrong)) {
            assertThat(response.statusCode()).isEqualTo(401);
            assertThat(response.headers().firstValue("www-authenticate")).contains("Bearer");
            JsonNode error = JSON.readTree(response.body()).get("error");
            assertThat(error.get("type").asText()).isEqualTo("authentication_error");
            assertThat(error.get("code").asText()).isEqualTo("invalid_api_key");
        }
        assertThat(JSON.readTree(missing.body()).path("error").path("message").asText()).contains("missing API key");
        assertThat(cluster.inferenceRequests("prefill-0")).isEmpty();
        assertThat(cluster.get("/metrics").body())
                .contains("pd_gateway_rejected_requests_total{reason=\"unauthorized\"} 2.0");
    }

    @Test
    void rightKey_served_theKeyNeverReachesAPod() throws Exception {
        cluster = pair("vllm", Map.of("ROUTING_ALGORITHM", "pd", "PD_GATEWAY_API_KEYS", "sk-test-1,sk-test-2"));

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("x", 2, true), "Authorization",
                "Bearer sk-test-2");

        assertThat(response.statusCode()).isEqualTo(200);
        for (String pod : new String[] {"prefill-0", "decode-0"}) {
            for (RecordedRequest received : cluster.inferenceRequests(pod)) {
                assertThat(received.header("authorization")).as(pod).isNull();
            }
        }
    }

    @Test
    void keysFromAFile_probesAndScrapeOpen_modelsAndDebugNeedTheKey() throws Exception {
        Path keys = Files.writeString(Files.createTempDirectory("pd-gateway-keys").resolve("keys"),
                "# ops\nsk-from-file\n");
        cluster = pair("vllm", Map.of("PD_GATEWAY_API_KEYS_FILE", keys.toString(), "PD_GATEWAY_DEBUG_ENDPOINTS", "true"));

        assertThat(get("/healthz", null).statusCode()).isEqualTo(200);
        assertThat(get("/readyz", null).statusCode()).isEqualTo(200);
        assertThat(get("/metrics", null).statusCode()).isEqualTo(200);
        assertThat(get("/v1/models", null).statusCode()).isEqualTo(401);
        assertThat(get("/v1/models", "Bearer sk-from-file").statusCode()).isEqualTo(200);
        assertThat(get("/debug/bucket-plan", null).statusCode()).isEqualTo(401);
        assertThat(get("/debug/bucket-plan", "Bearer sk-from-file").statusCode()).isEqualTo(200);
    }

    @Test
    void noKeysConfigured_openAsBefore_authorizationPassedToThePods_debugOff() throws Exception {
        cluster = pair("vllm", Map.of("ROUTING_ALGORITHM", "pd"));

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("x", 2, false), "Authorization",
                "Bearer pod-key");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(cluster.inferenceRequests("decode-0").get(0).header("authorization")).isEqualTo("Bearer pod-key");
        assertThat(get("/debug/bucket-plan", null).statusCode()).as("debug endpoints off by default").isEqualTo(404);
    }

    @Test
    void keySettingNamingNoKey_gatewayRefusesToStart() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0");
        try {
            cluster.startGateway(Map.of("PD_GATEWAY_API_KEYS", " , "));
            throw new AssertionError("the gateway started open although keys were asked for");
        } catch (IllegalArgumentException expected) {
            assertThat(expected).hasMessageContaining("name no key");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"vllm", "sglang", "trtllm"})
    void noHeaderFieldOrTargetPointsElsewhere_onlyDiscoveredPodsContacted(String engine) throws Exception {
        AtomicInteger trapped = new AtomicInteger();
        cluster = pair(engine, Map.of("ROUTING_ALGORITHM", "pd"));
        trap = cluster.vertx.createNetServer().connectHandler(socket -> {
            trapped.incrementAndGet();
            socket.close();
        });
        int trapPort = trap.listen(0, TRAP_HOST).await().actualPort();
        String elsewhere = TRAP_HOST + ":" + trapPort;
        String url = "http://" + elsewhere;
        String body = "{\"model\":\"my-model\",\"messages\":[{\"role\":\"user\",\"content\":\"go elsewhere\"}],"
                + "\"max_tokens\":3,\"kv_transfer_params\":{\"do_remote_prefill\":true,\"remote_host\":\"" + TRAP_HOST
                + "\",\"remote_port\":" + trapPort + ",\"remote_engine_id\":\"e\",\"remote_block_ids\":[1]},"
                + "\"disagg_prefill_resp\":{\"kv_transfer_params\":{\"remote_host\":\"" + TRAP_HOST + "\"}},"
                + "\"bootstrap_host\":\"" + TRAP_HOST + "\",\"bootstrap_port\":" + trapPort + ","
                + "\"disaggregated_params\":{\"request_type\":\"generation_only\",\"ctx_info_endpoint\":\"" + url + "\"},"
                + "\"base_url\":\"" + url + "\",\"api_base\":\"" + url + "\",\"url\":\"" + url + "\"}";

        HttpResponse<String> viaHeaders = cluster.post(CHAT, body, "target-pod", elsewhere, "prefill-target-pod",
                elsewhere, "target-pod-ip", elsewhere, "prefill-target-pod-ip", elsewhere, "x-forwarded-host", elsewhere,
                "forwarded", "host=" + elsewhere, "x-original-url", url + CHAT, "routing-strategy", "pd");
        assertThat(viaHeaders.statusCode()).as(viaHeaders.body()).isEqualTo(200);
        assertThat(viaHeaders.headers().firstValue("target-pod")).contains("decode-0");

        // The Host header and an absolute-form request target name the trap; neither is an upstream address.
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        try (RawStream raw = RawStream.open(cluster.gateway().port())) {
            raw.write(("POST " + url + CHAT + " HTTP/1.1\r\nHost: " + elsewhere + "\r\nContent-Type: application/json"
                    + "\r\nContent-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            raw.write(bytes);
            await().atMost(Duration.ofSeconds(10)).until(raw::poll, text -> text.contains("\"usage\""));
            assertThat(raw.poll()).startsWith("HTTP/1.1 200").contains("target-pod: decode-0");
        }

        HttpResponse<String> modelAsUrl = cluster.post(CHAT, body.replace("\"my-model\"", "\"" + url + "\""));
        assertThat(modelAsUrl.statusCode()).isEqualTo(404);
        assertThat(trapped.get()).as("connections to the host no discovery named").isZero();
    }

    @Test
    void redisPassword_sentWithEveryConnection_aReplicaWithoutItDegradesButServes() throws Exception {
        redis = new RedisProcess("s3cret-pass");
        Map<String, String> env = new HashMap<>(Map.of("ROUTING_ALGORITHM", "pd", "REDIS_HOST", "127.0.0.1",
                "REDIS_PORT", Integer.toString(redis.port), "REDIS_PASSWORD", "s3cret-pass"));
        cluster = pair("vllm", env);
        // The replica publishes its load under its own key every round: only possible once authenticated.
        await().atMost(Duration.ofSeconds(5)).until(() -> redis.countKeys("pd-gateway:replica:*") == 1);
        assertThat(cluster.gateway().metrics().scrape()).contains("pd_gateway_redis_degraded 0.0");

        env.put("REDIS_PASSWORD", "wrong");
        GatewayServer wrong = cluster.startReplica(env);
        await().atMost(Duration.ofSeconds(5)).until(() -> wrong.metrics().scrape()
                .contains("pd_gateway_redis_degraded 1.0"));
        HttpResponse<String> served = cluster.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + wrong.port() + CHAT)).header("Content-Type", "application/json").timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofString(TestCluster.chat("still served", 2, false))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(served.statusCode()).isEqualTo(200);
        assertThat(redis.countKeys("pd-gateway:replica:*")).as("only the replica that knows the password").isEqualTo(1);
    }
}
