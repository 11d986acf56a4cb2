package io.pdgateway.workload.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The {@code --json} report. The shape is a contract for scripts that track numbers over time; {@link #SCHEMA}
 * changes when a field changes meaning. Latencies are milliseconds; a value that was not measured is null (never
 * NaN, which is not JSON).
 */
public final class JsonReportWriter {
    /** Bumped when a field is removed or changes meaning; new fields may appear without a bump. */
    public static final String SCHEMA = "pd-gateway-bench/1";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private JsonReportWriter() {}

    public static void write(ReportDocument document, Path file) throws IOException {
        write(tree(document), file);
    }

    public static void write(ObjectNode tree, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, JSON.writeValueAsString(tree));
    }

    public static ObjectNode tree(ReportDocument document) {
        ObjectNode root = JSON.createObjectNode();
        root.put("schema", SCHEMA);
        root.put("title", document.title());
        root.put("command", document.command());
        environment(root.putObject("environment"), document.environment());
        root.put("workload", document.workload());
        ArrayNode notes = root.putArray("notes");
        document.notes().forEach(notes::add);
        ArrayNode runs = root.putArray("runs");
        document.runs().forEach(run -> run(runs.addObject(), run));
        return root;
    }

    private static void environment(ObjectNode node, Environment environment) {
        node.put("date", environment.date());
        node.put("cores", environment.cores());
        node.put("java", environment.java());
        node.put("os", environment.os());
        node.put("maxHeapMb", environment.maxHeapMb());
    }

    private static void run(ObjectNode node, RunReport run) {
        node.put("name", run.name());
        node.put("details", run.details());
        summary(node.putObject("summary"), run.summary());
        ArrayNode series = node.putArray("series");
        for (TimeSeries.Point p : run.series().points()) {
            ObjectNode point = series.addObject();
            point.put("second", p.second());
            point.put("sent", p.sent());
            point.put("completed", p.completed());
            point.put("errors", p.errors());
            point.put("outputTokens", p.outputTokens());
            number(point, "ttftP50Ms", p.ttftP50Millis());
            number(point, "ttftP99Ms", p.ttftP99Millis());
            if (p.inFlight() >= 0) {
                point.put("inFlight", p.inFlight());
            } else {
                point.putNull("inFlight");
            }
        }
        ObjectNode cdfs = node.putObject("cdf");
        for (LatencyCdf cdf : run.cdfs()) {
            ArrayNode points = cdfs.putArray(cdf.metric());
            cdf.points().forEach(p -> points.addArray().add(p.millis()).add(p.percentile()));
        }
    }

    private static void summary(ObjectNode node, RunSummary s) {
        node.put("requests", s.requests());
        node.put("succeeded", s.succeeded());
        node.put("errors", s.errors());
        ObjectNode kinds = node.putObject("errorKinds");
        s.errorKinds().forEach(kinds::put);
        node.put("fallbacks", s.fallbacks());
        number(node, "wallSeconds", s.wallSeconds());
        number(node, "requestsPerSecond", s.requestsPerSecond());
        number(node, "outputTokensPerSecond", s.outputTokensPerSecond());
        ObjectNode latency = node.putObject("latencyMs");
        stats(latency.putObject("ttfb"), s.ttfb());
        stats(latency.putObject("ttft"), s.ttft());
        stats(latency.putObject("tpot"), s.tpot());
        stats(latency.putObject("itl"), s.itl());
        stats(latency.putObject("e2e"), s.e2e());
        ObjectNode slo = node.putObject("slo");
        slo.put("ttftMs", s.slo().ttftMillis());
        slo.put("tpotMs", s.slo().tpotMillis());
        number(node, "goodput", s.goodput());
        number(node, "sendLagP99Ms", s.lagP99Millis());
    }

    private static void stats(ObjectNode node, LatencyStats stats) {
        node.put("count", stats.count());
        number(node, "mean", stats.mean());
        number(node, "p50", stats.p50());
        number(node, "p90", stats.p90());
        number(node, "p99", stats.p99());
        number(node, "max", stats.max());
    }

    static void number(ObjectNode node, String field, double value) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            node.putNull(field);
        } else {
            node.put(field, value);
        }
    }
}
