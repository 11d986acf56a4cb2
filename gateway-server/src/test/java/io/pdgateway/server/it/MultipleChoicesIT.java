package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdgateway.sim.SimRole;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * A request for n completions through a vLLM prefill/decode pair: the client gets every choice, whole or streamed, each
 * streamed choice's text the whole answer's, and the time per output token the gateway reports is the stream's step
 * gap, not its event gap (n events a step): about what a one-choice stream of the same length reads. Likewise a short
 * chat stream with its usage chunk: its role and usage chunks carry no token, and it reads what a long stream reads.
 */
class MultipleChoicesIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern TPOT = Pattern.compile(
            "(?m)^pd_tpot_seconds_(sum|count)\\{model=\"my-model\",route=\"pd\"} ([0-9.eE+-]+)$");
    private static final int TOKENS = 30;
    @AutoClose
    private TestCluster cluster;

    /** A vLLM pair whose decode steps take about {@code scale} × 36 µs: the stream's gaps, not loopback jitter. */
    private void startPair(double scale) throws Exception {
        cluster = new TestCluster().prefill("prefill", "rs");
        cluster.withSimOptions(b -> b.timeScale(TestCluster.TIME_SCALE * scale)).pod("decode", SimRole.DECODE, "rs",
                Map.of(), null);
        cluster.startGateway(Map.of("ROUTING_ALGORITHM", "pd"));
    }

    @Test
    void twoChoices_bothReachTheClient_andTpotReadsTheStepGap() throws Exception {
        startPair(25);
        String body = "{\"model\":\"my-model\",\"messages\":[{\"role\":\"user\",\"content\":\"pick two\"}],"
                + "\"max_tokens\":" + TOKENS;

        JsonNode whole = JSON.readTree(post(body + ",\"n\":2}").body());
        assertThat(whole.path("choices")).hasSize(2);
        assertThat(whole.path("usage").path("completion_tokens").asInt()).isEqualTo(2 * TOKENS);

        double oneChoice = tpotOf(body + ",\"stream\":true}");
        List<String> events = new ArrayList<>();
        double twoChoices = tpotOf(body + ",\"n\":2,\"stream\":true}", events);
        StringBuilder[] texts = {new StringBuilder(), new StringBuilder()};
        for (String event : events) {
            JsonNode choice = JSON.readTree(event).path("choices").path(0);
            texts[choice.path("index").asInt()].append(choice.path("delta").path("content").asText());
        }
        for (int c = 0; c < 2; c++) {
            assertThat(texts[c].toString()).as("streamed choice %d", c)
                    .isEqualTo(whole.path("choices").path(c).path("message").path("content").asText());
        }
        // Read as one token an event, the two-choice stream would report about half the one-choice stream's TPOT.
        assertThat(twoChoices / oneChoice).as("TPOT with two choices %.6f s, with one %.6f s", twoChoices, oneChoice)
                .isBetween(0.7, 1.45);
        cluster.assertQuiescent();
    }

    @Test
    void shortChatStreamWithUsage_readsTheStepGapOfALongOne() throws Exception {
        startPair(100);
        String body = "{\"model\":\"my-model\",\"messages\":[{\"role\":\"user\",\"content\":\"a few\"}],"
                + "\"stream\":true,\"stream_options\":{\"include_usage\":true},\"max_tokens\":";
        // The median of three streams each: one short stream (three gaps) swings with the host, and read 0.76 once.
        double longStream = medianTpotOf(body + 24 + "}");
        double shortStream = medianTpotOf(body + 4 + "}");
        // Four tokens are three gaps; with the role and usage chunks counted they would read as five (0.6 of it).
        assertThat(shortStream / longStream).as("TPOT of 4 tokens %.6f s, of 24 %.6f s", shortStream, longStream)
                .isBetween(0.8, 1.3);
        cluster.assertQuiescent();
    }

    private HttpResponse<String> post(String body) throws Exception {
        HttpResponse<String> response = cluster.post("/v1/chat/completions", body);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response;
    }

    private double tpotOf(String body) throws Exception {
        return tpotOf(body, new ArrayList<>());
    }

    private double medianTpotOf(String body) throws Exception {
        double[] tpots = {tpotOf(body), tpotOf(body), tpotOf(body)};
        java.util.Arrays.sort(tpots);
        return tpots[1];
    }

    /** Streams the request, its events (without [DONE]) into {@code events}; the TPOT the gateway recorded for it. */
    private double tpotOf(String body, List<String> events) throws Exception {
        double[] before = tpotSeries();
        for (String line : post(body).body().split("\n")) {
            if (line.startsWith("data: ") && !line.equals("data: [DONE]")) {
                events.add(line.substring("data: ".length()));
            }
        }
        double[] after = tpotSeries();
        assertThat(after[1] - before[1]).as("streams recorded").isEqualTo(1);
        return after[0] - before[0];
    }

    /** pd_tpot_seconds' sum and count for the PD route. */
    private double[] tpotSeries() throws Exception {
        double[] series = new double[2];
        Matcher m = TPOT.matcher(cluster.get("/metrics").body());
        while (m.find()) {
            series[m.group(1).equals("sum") ? 0 : 1] = Double.parseDouble(m.group(2));
        }
        return series;
    }
}
