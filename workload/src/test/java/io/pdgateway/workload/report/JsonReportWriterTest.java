package io.pdgateway.workload.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JSON report's shape, which scripts rely on: schema tag, environment, one object per run with summary, latency
 * percentiles in ms, SLO and goodput, per-second series and CDF points; unmeasured values are null, never NaN.
 */
class JsonReportWriterTest {
    @TempDir
    Path dir;

    @Test
    void report_hasTheDocumentedShape() throws Exception {
        Path file = dir.resolve("out/report.json");
        JsonReportWriter.write(Reports.document("pd/token_load", "pd/least_request"), file);

        JsonNode root = new ObjectMapper().readTree(file.toFile());
        assertThat(root.path("schema").asText()).isEqualTo(JsonReportWriter.SCHEMA);
        assertThat(root.path("command").asText()).startsWith("bin/pd-gateway bench");
        assertThat(root.path("environment").path("cores").asInt()).isPositive();
        assertThat(root.path("environment").path("date").asText()).isNotEmpty();
        assertThat(root.path("runs")).hasSize(2);

        JsonNode run = root.path("runs").path(0);
        assertThat(run.path("name").asText()).isEqualTo("pd/token_load");
        JsonNode summary = run.path("summary");
        assertThat(summary.path("requests").asInt()).isEqualTo(100);
        assertThat(summary.path("errors").asInt()).isEqualTo(1);
        assertThat(summary.path("errorKinds").path("http 503").asInt()).isEqualTo(1);
        for (String metric : new String[] {"ttfb", "ttft", "tpot", "itl", "e2e"}) {
            JsonNode stats = summary.path("latencyMs").path(metric);
            assertThat(stats.has("p50") && stats.has("p99") && stats.has("count")).as(metric).isTrue();
        }
        assertThat(summary.path("latencyMs").path("ttft").path("p50").asDouble()).isBetween(58.0, 60.0);
        assertThat(summary.path("slo").path("ttftMs").asDouble()).isEqualTo(50.0);
        assertThat(summary.path("goodput").asDouble()).isEqualTo(0.41);

        assertThat(run.path("series").isArray()).isTrue();
        assertThat(run.path("series").path(0).path("sent").asInt()).isEqualTo(50);
        JsonNode cdf = run.path("cdf").path("ttft");
        assertThat(cdf.size()).isEqualTo(103); // percentiles 0..99, then 99.5, 99.9, 100
        assertThat(cdf.path(102).path(1).asDouble()).isEqualTo(100.0);
    }

    @Test
    void unmeasuredValues_areNull() throws Exception {
        Path file = dir.resolve("report.json");
        JsonReportWriter.write(Reports.document("run"), file);

        JsonNode series = new ObjectMapper().readTree(file.toFile()).path("runs").path(0).path("series");
        // The third second saw no request start: its TTFT percentiles are null, not NaN (which is not JSON).
        assertThat(series.path(2).path("ttftP50Ms").isNull()).isTrue();
    }
}
