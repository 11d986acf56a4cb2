package io.pdgateway.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code bench compare} end to end, as a user runs it: three setups (a standard cluster with random routing, a PD
 * cluster with token_load, and the same PD cluster with no gateway, the client taking the pairs in turn), each on a
 * fresh simulated cluster, a handful of requests at a tiny time scale; all finish without errors, leave nothing in
 * flight, and the reports are written.
 */
class BenchCompareIT {
    /** Requests per setup: enough to exercise routing, few enough for seconds. */
    private static final int REQUESTS = 8;

    @TempDir
    Path dir;

    @Test
    @Timeout(120)
    void twoSetups_sameWorkload_oneReport() throws Exception {
        Path json = dir.resolve("compare.json");
        Path html = dir.resolve("compare.html");

        int status = new CommandLine(new BenchCommand()).execute("compare", "--setups", "standard/random,pd/token_load,pd/round-robin",
                "--synthetic", "--rate", "20", "--duration", "2", "--requests", Integer.toString(REQUESTS),
                "--prompt-tokens", "64..512", "--output-tokens", "8", "--shared-prefix-tokens", "32",
                "--standard-pods", "2", "--rolesets", "1", "--prefill-per-roleset", "2", "--time-scale", "0.01",
                "--warmup-seconds", "0", "--timeout", "20", "--json", json.toString(), "--html", html.toString());

        assertThat(status).isZero();
        JsonNode report = new ObjectMapper().readTree(json.toFile());
        assertThat(report.path("runs")).hasSize(3);
        assertThat(report.path("runs").path(0).path("name").asText()).isEqualTo("standard/random");
        assertThat(report.path("runs").path(1).path("name").asText()).isEqualTo("pd/token_load");
        assertThat(report.path("runs").path(2).path("name").asText()).isEqualTo("pd/round-robin");
        for (JsonNode run : report.path("runs")) {
            assertThat(run.path("summary").path("requests").asInt()).as(run.path("name").asText()).isEqualTo(REQUESTS);
            assertThat(run.path("summary").path("errors").asInt()).as(run.path("name").asText()).isZero();
            assertThat(run.path("details").asText()).doesNotContain("NOT QUIESCENT");
            assertThat(run.path("summary").path("latencyMs").path("ttft").path("p50").isNumber()).isTrue();
        }
        // Standard pods answer every request of the random setup; the PD setups use their pairs (round-robin: the
        // client runs both legs itself, so no gateway names a fallback pod).
        assertThat(report.path("runs").path(0).path("summary").path("fallbacks").asInt()).isEqualTo(REQUESTS);
        assertThat(report.path("runs").path(1).path("summary").path("fallbacks").asInt()).isZero();
        assertThat(report.path("runs").path(2).path("summary").path("fallbacks").asInt()).isZero();
        assertThat(Files.readString(html)).contains("<svg", "pd/token_load");
    }
}
