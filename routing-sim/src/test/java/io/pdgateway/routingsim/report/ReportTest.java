package io.pdgateway.routingsim.report;

import io.pdgateway.routingsim.workload.Slo;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdgateway.routingsim.RoutingSimulator;
import io.pdgateway.routingsim.policy.PolicyRegistry;
import io.pdgateway.routingsim.run.SimFixtures;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Percentiles are nearest-rank; the table, CSV, JSON and HTML renderings carry one entry per policy. */
class ReportTest {
    private static RunReport report;

    @BeforeAll
    static void run() {
        report = RoutingSimulator.run(SimFixtures.smallCluster(), SimFixtures.chat(1),
                PolicyRegistry.resolve(List.of("round-robin", "pd")), 1, Slo.INTERACTIVE, 2, "bin/routing-sim test",
                line -> { });
    }

    @Test
    void percentile_nearestRank_ignoresNaN() {
        LatencySample sample = LatencySample.of(new double[] {5, Double.NaN, 1, 4, 2, 3});
        assertThat(sample.count()).isEqualTo(5);
        assertThat(sample.percentile(50)).isEqualTo(3);
        assertThat(sample.percentile(99)).isEqualTo(5);
        assertThat(sample.percentile(1)).isEqualTo(1);
        assertThat(LatencySample.of(new double[0]).percentile(50)).isNaN();
    }

    @Test
    void table_oneLinePerPolicy_andTheInvariantLine() {
        String table = TableWriter.write(report);
        assertThat(table).contains("round-robin").contains("pd:prefix_cache:load_balancing").contains("invariants: ok");
        assertThat(report.policies()).allSatisfy(p -> {
            assertThat(p.completed()).isEqualTo(report.requests());
            assertThat(p.goodput()).isPositive();
            assertThat(p.attainment()).isBetween(0.0, 1.0);
        });
    }

    @Test
    void csvJsonHtml_carryEveryPolicy() throws Exception {
        String csv = CsvWriter.write(report);
        assertThat(csv.lines()).hasSize(3).first().isEqualTo(CsvWriter.HEADER);
        JsonNode json = new ObjectMapper().readTree(JsonWriter.write(report));
        assertThat(json.path("policies")).hasSize(2);
        assertThat(json.path("policies").get(1).path("name").asText()).isEqualTo("pd:prefix_cache:load_balancing");
        String html = HtmlWriter.write(report);
        assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg").contains("Goodput").doesNotContain("<script");
    }
}
