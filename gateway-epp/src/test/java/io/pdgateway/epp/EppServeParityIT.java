package io.pdgateway.epp;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.server.GatewayServer;
import io.pdgateway.server.trace.Tracing;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The endpoint picker and {@code serve} decide alike: two gateways with the same seed over the same pod file, one asked
 * over HTTP and one through ext_proc, given the same prompts in the same order, choose the same pods. The strategy is
 * random over four standard pods, so the sequence is the seed's: a picker with a session of its own, another seed or
 * other routing code would choose otherwise (all eight alike by chance: 4^-8).
 */
class EppServeParityIT {
    private static final long SEED = 20_26L;
    private EppCluster cluster;

    @AfterEach
    void tearDown() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void samePromptsSameSeed_eppAndServeChooseTheSamePods() throws Exception {
        cluster = new EppCluster("vllm").standard("standard-0").standard("standard-1").standard("standard-2")
                .standard("standard-3");
        Map<String, String> env = Map.of("ROUTING_ALGORITHM", "random");
        GatewayServer serve = cluster.serve(env, SEED, Tracing.off());
        cluster.startPicker(env, SEED, Tracing.off());

        List<String> served = new ArrayList<>();
        List<String> picked = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String body = EppCluster.chat("prompt number " + i, 2, false);
            HttpResponse<String> response = cluster.http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + serve.port() + EppCluster.CHAT)).timeout(Duration.ofSeconds(20))
                    .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            served.add(response.headers().firstValue("target-pod").orElseThrow());

            byte[] raw = body.getBytes(StandardCharsets.UTF_8);
            try (EnvoyStream envoy = cluster.buffered()) {
                EppCluster.Pick pick = EppCluster.askBuffered(envoy, raw);
                assertThat(cluster.forward(pick, EppCluster.CHAT).statusCode()).isEqualTo(200);
                envoy.responseHeaders(200, pick.endpoint(), true);
                picked.add(EppCluster.headers(envoy.next().getResponseHeaders().getResponse().getHeaderMutation()
                        .getSetHeadersList()).get("target-pod"));
            }
        }
        assertThat(picked).isEqualTo(served);
        assertThat(served).as("the seed spreads the prompts over more than one pod").hasSizeGreaterThan(1)
                .matches(list -> list.stream().distinct().count() > 1);
    }
}
