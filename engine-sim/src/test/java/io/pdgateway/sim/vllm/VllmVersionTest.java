package io.pdgateway.sim.vllm;

import static io.pdgateway.sim.SimTestSupport.await;
import static io.pdgateway.sim.SimTestSupport.get;
import static io.pdgateway.sim.SimTestSupport.json;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.SimPod;
import io.vertx.core.Vertx;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** vLLM's {@code GET /version}, which clients read to tell the engine's release: {@code {"version": "x.y.z..."}}. */
class VllmVersionTest {
    @Test
    void version_answersTheReleaseAsVllmDoes() {
        Vertx vertx = Vertx.vertx();
        SimPod pod = await(SimPod.start(vertx, SimConfig.builder().host("127.0.0.34").build()));
        try {
            HttpResponse<String> response = get(pod, "/version");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("content-type")).contains("application/json");
            assertThat(json(response.body()).path("version").asText()).matches("\\d+\\.\\d+\\.\\d+\\+sim");
            assertThat(get(pod, "/get_server_info").statusCode()).as("SGLang's, not vLLM's").isEqualTo(404);
        } finally {
            await(pod.close());
            await(vertx.close());
        }
    }
}
