package io.pdgateway.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The selectors and grouping labels read out of dashboard-style PromQL, and the dashboard check built on them: a query
 * naming a metric, a matcher label, a grouping label or a legend label that /metrics lacks is reported.
 */
class PromQlSelectorsTest {
    private static final String METRICS = """
            # HELP req_total Requests.
            # TYPE req_total counter
            req_total{model="m",route="pd"} 1.0
            # HELP ttft_seconds TTFT.
            # TYPE ttft_seconds histogram
            ttft_seconds_bucket{model="m",le="+Inf"} 1
            ttft_seconds_count{model="m"} 1
            ttft_seconds_sum{model="m"} 0.1
            """;

    @Test
    void quantileOverRate_selectorsAndGroupingFound() {
        PromQlSelectors.Query query = PromQlSelectors.parse(
                "histogram_quantile(0.99, sum by (le, route) (rate(ttft_seconds_bucket{model=~\"$model\"}[5m])))");
        assertThat(query.selectors()).containsExactly(
                new PromQlSelectors.Selector("ttft_seconds_bucket", Set.of("model")));
        assertThat(query.groupingLabels()).containsExactly("le", "route");
    }

    @Test
    void ratioWithTrailingBy_bothSidesFound_stringsAndDurationsSkipped() {
        PromQlSelectors.Query query = PromQlSelectors.parse("sum(rate(a_total{x=\"by (y)\", z!~'q'}[1m:30s])) by "
                + "(pod) / on (pod) group_left sum(b_total offset 5m) > bool 0.5e1");
        assertThat(query.selectors()).extracting(PromQlSelectors.Selector::metric).containsExactly("a_total", "b_total");
        assertThat(query.selectors().get(0).matcherLabels()).containsExactly("x", "z");
        assertThat(query.groupingLabels()).containsExactly("pod");
    }

    @Test
    void aLabelGroupedByTwice_refused() {
        assertThatThrownBy(() -> PromQlSelectors.parse(
                "histogram_quantile(0.99, sum by (le, le) (rate(x_bucket[5m])))"))
                .hasMessageContaining("names le twice");
    }

    @Test
    void selectorWithoutName_refused() {
        assertThatThrownBy(() -> PromQlSelectors.parse("sum({__name__=\"x\"})"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void dashboardAskingForWhatMetricsLack_everyGapReported(@TempDir Path dir) throws Exception {
        Path dashboard = dir.resolve("d.json");
        Files.writeString(dashboard, """
                {"templating": {"list": [{"name": "model", "query": {"query": "label_values(req_total, pod)"}}]},
                 "panels": [
                  {"title": "ok", "targets": [{"expr": "sum by (route) (rate(req_total{model=~\\"$model\\"}[$__rate_interval]))",
                                               "legendFormat": "{{route}} {{instance}}"}]},
                  {"title": "row", "panels": [
                    {"title": "missing metric", "targets": [{"expr": "rate(nope_total[5m])"}]}]},
                  {"title": "missing label", "targets": [{"expr": "sum by (pod) (req_total{zone=\\"a\\"})",
                                                          "legendFormat": "{{model}}"}]}]}
                """);
        ExpositionLint metrics = ExpositionLint.check(METRICS);

        assertThat(DashboardCheck.problems(dashboard, metrics, "row")).as("a collapsed row, checked apart")
                .containsExactly("panel \"missing metric\": no series named nope_total");
        assertThat(DashboardCheck.problems(dashboard, metrics)).containsExactlyInAnyOrder(
                "panel \"missing label\": req_total has no label zone",
                "panel \"missing label\": groups by pod, which none of its metrics has",
                "panel \"missing label\": legend names model, which the query does not keep",
                "variable label_values(req_total, pod): no req_total series with label pod");
        Path promtool = Promtool.locate();
        if (promtool != null) {
            assertThat(DashboardCheck.promtoolCheckRules(promtool, dashboard, dir)).isEmpty();
            Files.writeString(dashboard, "{\"panels\": [{\"title\": \"bad\", \"targets\": [{\"expr\": \"sum by (\"}]}]}");
            assertThat(DashboardCheck.promtoolCheckRules(promtool, dashboard, dir)).contains("exit");
        }
    }
}
