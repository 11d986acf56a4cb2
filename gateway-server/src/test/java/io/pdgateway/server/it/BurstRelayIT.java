package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.core.spec.SpecLabels;
import io.pdgateway.sim.cluster.PodManifest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * A pod's burst of stream events (one socket read holding many) reaches the client whole and in order, and in a
 * couple of HTTP chunks rather than one per event: the first event at once, the rest together when the gateway's
 * event loop has read them all. The pod here is a bare socket that writes its head and every event in one write,
 * so the burst is certain to arrive in one read.
 */
class BurstRelayIT {
    private static final int EVENTS = 40;

    @AutoClose
    private TestCluster cluster;
    private NetServer burstPod;

    @AfterEach
    void tearDown() {
        if (burstPod != null) {
            burstPod.close().await();
        }
    }

    @Test
    void burstOfEvents_reachesTheClientInOrderInAFewChunks() throws Exception {
        cluster = new TestCluster().standard("standard-0");
        PodManifest.Entry sim = cluster.entry("standard-0");
        burstPod = cluster.vertx.createNetServer().connectHandler(socket -> {
            StringBuilder request = new StringBuilder();
            socket.handler(data -> {
                request.append(data.toString(StandardCharsets.ISO_8859_1));
                String text = request.toString();
                if (text.startsWith("GET") && text.contains("\r\n\r\n")) { // the scraper: nothing to report
                    request.setLength(0);
                    socket.write("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 0\r\n\r\n");
                } else if (text.startsWith("POST") && text.endsWith("}")) {
                    request.setLength(0);
                    socket.write(Buffer.buffer(burst()));
                }
            });
        }).listen(0, sim.podIp()).await();
        Map<String, String> labels = new LinkedHashMap<>(sim.labels());
        labels.put(SpecLabels.PORT, Integer.toString(burstPod.actualPort()));
        cluster.replaceEntry("standard-0", new PodManifest.Entry(sim.namespace(), sim.name(), labels,
                sim.annotations(), sim.podIp(), true));
        cluster.startGateway(Map.of("ROUTING_ALGORITHM", "random"));

        try (RawStream raw = new RawStream(cluster.gateway().port(), "/v1/chat/completions",
                TestCluster.chat("burst", EVENTS, true))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> raw.poll().endsWith("0\r\n\r\n"));
            String response = raw.poll();
            String body = response.substring(response.indexOf("\r\n\r\n") + 4);
            List<String> chunks = httpChunks(body);

            assertThat(response).startsWith("HTTP/1.1 200");
            assertThat(String.join("", chunks)).isEqualTo(events());
            assertThat(chunks).as("HTTP chunks the client got for %d events", EVENTS).hasSizeLessThanOrEqualTo(3);
        }
    }

    /** The pod's whole answer, head and every event and the last chunk, as one write. */
    private static String burst() {
        StringBuilder out = new StringBuilder("HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
                + "transfer-encoding: chunked\r\n\r\n");
        for (String event : eventList()) {
            out.append(Integer.toHexString(event.length())).append("\r\n").append(event).append("\r\n");
        }
        return out.append("0\r\n\r\n").toString();
    }

    private static List<String> eventList() {
        List<String> events = new ArrayList<>();
        for (int i = 0; i < EVENTS; i++) {
            events.add("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"t" + i + "\"}}]}\n\n");
        }
        events.add("data: [DONE]\n\n");
        return events;
    }

    private static String events() {
        return String.join("", eventList());
    }

    /** The payloads of a chunked body, in order (the terminating empty chunk left out). */
    private static List<String> httpChunks(String body) {
        List<String> chunks = new ArrayList<>();
        int at = 0;
        while (true) {
            int lineEnd = body.indexOf("\r\n", at);
            int size = Integer.parseInt(body.substring(at, lineEnd).trim(), 16);
            if (size == 0) {
                return chunks;
            }
            chunks.add(body.substring(lineEnd + 2, lineEnd + 2 + size));
            at = lineEnd + 2 + size + 2;
        }
    }
}
