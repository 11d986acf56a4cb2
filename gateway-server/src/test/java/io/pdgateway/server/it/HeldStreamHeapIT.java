package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.sim.FaultConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * What a held PD stream keeps on the gateway's heap once both its legs are out (issue 16, part 4): not the client's
 * body, nor its parsed tree, nor the plan's leg bodies, nor the prefill leg's finished HTTP request. Counted in a real
 * gateway process by {@code jcmd GC.class_histogram} (live objects, after a full collection) while decode pods that
 * stop after their first token hold every stream open.
 */
class HeldStreamHeapIT {
    private static final int STREAMS = 12;
    private static final Pattern ROW = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+\\d+\\s+(\\S+)");
    private static final String EXCHANGE = "io.pdgateway.server.exchange.Exchange";

    @AutoClose
    private TestCluster cluster;

    @Test
    void heldPdStreams_keepNeitherTheBodyNorThePrefillRequest() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "rs-0").decode("decode-0", "rs-0");
        cluster.simPod("decode-0").setFaults(FaultConfig.none().withHangAfterTokens(1));
        cluster.writePodFile();
        List<RawStream> streams = new ArrayList<>();
        try (GatewayProcess gateway = GatewayProcess.serve(Map.of(SpecEnv.ROUTING_ALGORITHM, "pd"),
                List.of("--pods", cluster.podFile.toString()))) {
            for (int i = 0; i < STREAMS; i++) {
                streams.add(new RawStream(gateway.port(), "/v1/chat/completions",
                        TestCluster.chat("held stream " + i, 64, true)));
            }
            for (RawStream stream : streams) {
                await().atMost(Duration.ofSeconds(20)).until(() -> stream.contentEvents() > 0);
            }

            Map<String, Long> live = liveInstances(gateway.pid());
            assertThat(live.get(EXCHANGE)).as("exchanges (one per held stream)").isEqualTo(STREAMS);
            Map<String, Long> unneeded = new HashMap<>();
            for (String name : List.of(
                    "io.pdgateway.server.front.OpenAiRequest", // the client's body
                    "io.pdgateway.engine.LegRequest", // the plan's input: body, tree and pods
                    "io.pdgateway.server.front.BodyReader", // kept by the client request's handlers
                    "io.pdgateway.server.exchange.PrefillCall")) { // the prefill leg, answered
                if (live.containsKey(name)) {
                    unneeded.put(name, live.get(name));
                }
            }
            assertThat(unneeded).as("live objects that no held stream needs any more").isEmpty();
            // The routing's score arrays, behind the decision's explanation: two per stream when the attempt kept them
            // (fewer than one per stream leaves room for buffers that routing may keep for reuse).
            assertThat(live.getOrDefault("io.pdgateway.core.routing.ScoredPods", 0L)).as("routing score tables")
                    .isLessThan(STREAMS);
            // The decode legs' requests still run; the prefill legs' finished ones are gone. A scrape of a pod's
            // /metrics may be in flight at the moment of the count.
            assertThat(live.getOrDefault("io.vertx.core.http.impl.HttpClientRequestImpl", 0L))
                    .as("HTTP requests to pods").isBetween((long) STREAMS, STREAMS + 2L);
        } finally {
            for (RawStream stream : streams) {
                stream.close();
            }
        }
    }

    /** Live instances by class name in another JVM, after a full collection. */
    private static Map<String, Long> liveInstances(long pid) throws IOException, InterruptedException {
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid), "GC.class_histogram").redirectErrorStream(true).start();
        String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(jcmd.waitFor(60, TimeUnit.SECONDS)).as("jcmd finished").isTrue();
        Map<String, Long> counts = new HashMap<>();
        for (String line : out.split("\n")) {
            Matcher row = ROW.matcher(line);
            if (row.find()) {
                counts.merge(row.group(2), Long.parseLong(row.group(1)), Long::sum);
            }
        }
        assertThat(counts).as("jcmd GC.class_histogram output:\n" + out).containsKey(EXCHANGE);
        return counts;
    }
}
