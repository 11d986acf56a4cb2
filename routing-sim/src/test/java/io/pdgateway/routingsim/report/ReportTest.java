package io.pdgateway.routingsim.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdgateway.routingsim.RoutingSimulator;
import io.pdgateway.routingsim.policy.PolicyRegistry;
import io.pdgateway.routingsim.run.SimFixtures;
import io.pdgateway.workload.Slo;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The table, CSV, JSON and HTML renderings carry one entry per policy (percentiles: NearestRankPercentilesTest). */
class ReportTest {
    private static SimulationReport report;

    @BeforeAll
    static void run() {
        report = RoutingSimulator.run(SimFixtures.smallCluster(), SimFixtures.chat(1),
                PolicyRegistry.resolve(List.of("round-robin", "pd")), 1, Slo.INTERACTIVE, 2, "bin/routing-sim test",
                line -> { });
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
