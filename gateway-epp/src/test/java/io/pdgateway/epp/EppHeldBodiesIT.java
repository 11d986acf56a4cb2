package io.pdgateway.epp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.SimRole;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * PD_GATEWAY_MAX_HELD_BODY_BYTES in the ext_proc picker: the bodies its streams hold count with serve's, a body past the
 * bound gets an immediate 503 with Retry-After as serve answers it, and a stream's bytes leave the count when it ends,
 * or as soon as Envoy has what it sends on: a stream whose answer is still being relayed holds no body.
 */
class EppHeldBodiesIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** One of these bodies fits under the bound, two do not. */
    private static final byte[] LONG = EppCluster.chat("word ".repeat(20_000), 4, true)
            .getBytes(StandardCharsets.UTF_8);
    @AutoClose
    private EppCluster cluster;

    @Test
    void aSecondBodyPastTheBound_immediate503_andAnEndedStreamGivesItsBytesBack() throws Exception {
        cluster = new EppCluster("vllm").pod("prefill-0", SimRole.PREFILL, "group-0", null,
                FaultConfig.none().withHangBeforeHeaders()).decode("decode-0", "group-0")
                .startPicker(Map.of("ROUTING_ALGORITHM", "pd", "PD_GATEWAY_MAX_HELD_BODY_BYTES",
                        String.valueOf(LONG.length + LONG.length / 2)));
        try (EnvoyStream held = cluster.buffered()) {
            held.requestHeaders(EppCluster.CHAT, Map.of(), null);
            held.next();
            held.requestBody(LONG, true);
            await().atMost(10, TimeUnit.SECONDS).until(() -> cluster.sim("prefill-0").openStreams() == 1);
            assertThat(cluster.gateway().heldBodies().held()).isEqualTo(LONG.length);

            try (EnvoyStream refused = cluster.buffered()) {
                refused.requestHeaders(EppCluster.CHAT, Map.of(), null);
                refused.next();
                refused.requestBody(LONG, true);
                ProcessingResponse answer = refused.next();
                assertThat(answer.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(503);
                assertThat(JSON.readTree(answer.getImmediateResponse().getBody().toByteArray()).at("/error/code")
                        .asText()).isEqualTo("held_bodies_full");
                assertThat(EppCluster.headers(answer.getImmediateResponse().getHeaders().getSetHeadersList()))
                        .containsEntry("retry-after", "1");
            }
            assertThat(cluster.sim("prefill-0").openStreams()).as("the refused one reached no pod").isEqualTo(1);
            assertThat(cluster.gateway().metrics().scrape())
                    .contains("pd_gateway_rejected_requests_total{reason=\"held_bodies_full\"} 1.0");
            held.reset();
        }
        await().atMost(10, TimeUnit.SECONDS).until(() -> cluster.gateway().heldBodies().held() == 0);
        cluster.assertQuiescent();
    }

    @Test
    void aForwardedStream_holdsNoBody_soTheNextLongPromptIsStillPicked() throws Exception {
        cluster = new EppCluster("vllm").prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .startPicker(Map.of("ROUTING_ALGORITHM", "pd", "PD_GATEWAY_MAX_HELD_BODY_BYTES",
                        String.valueOf(LONG.length + LONG.length / 2)));
        try (EnvoyStream relaying = cluster.buffered()) {
            EppCluster.Pick first = EppCluster.askBuffered(relaying, LONG);
            assertThat(first.endpoint()).isEqualTo(cluster.address("decode-0"));
            // Envoy now relays the decode's answer for as long as it streams; this stream stays open meanwhile.
            assertThat(cluster.gateway().heldBodies().held()).as("picked: nothing held").isZero();

            try (EnvoyStream next = cluster.buffered()) {
                EppCluster.Pick second = EppCluster.askBuffered(next, LONG);
                assertThat(second.endpoint()).as("not refused: the open stream counts nothing")
                        .isEqualTo(cluster.address("decode-0"));
                next.reset();
            }
            relaying.reset();
        }
        assertThat(cluster.gateway().metrics().scrape()).doesNotContain("reason=\"held_bodies_full\"} 1.0");
        await().atMost(10, TimeUnit.SECONDS).until(() -> cluster.gateway().heldBodies().held() == 0);
        cluster.assertQuiescent();
    }
}
