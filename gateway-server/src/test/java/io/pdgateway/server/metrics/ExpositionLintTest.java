package io.pdgateway.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The lint finds what promtool finds, one broken exposition at a time, and nothing in a clean one. */
class ExpositionLintTest {
    private static final String CLEAN = """
            # HELP requests_total Requests served.
            # TYPE requests_total counter
            requests_total{model="m",code="200"} 3.0
            requests_total{model="m",code="404"} 1.0
            # HELP latency_seconds Request latency.
            # TYPE latency_seconds histogram
            latency_seconds_bucket{le="0.1"} 1
            latency_seconds_bucket{le="+Inf"} 2
            latency_seconds_count 2
            latency_seconds_sum 0.3
            # HELP in_flight_requests Requests now.
            # TYPE in_flight_requests gauge
            in_flight_requests NaN
            """;

    @Test
    void cleanExposition_hasNoProblems() {
        ExpositionLint lint = ExpositionLint.check(CLEAN);
        assertThat(lint.problems()).isEmpty();
        assertThat(lint.families()).containsOnlyKeys("requests_total", "latency_seconds", "in_flight_requests");
        assertThat(lint.familyOf("latency_seconds_bucket").type()).isEqualTo("histogram");
        assertThat(lint.seriesKeys()).hasSize(7);
    }

    @Test
    void missingHelp_reported() {
        assertThat(ExpositionLint.check("# TYPE up gauge\nup 1\n").problems()).containsExactly("up: no help text");
    }

    @Test
    void sampleWithoutFamily_reported() {
        assertThat(ExpositionLint.check("up 1\n").problems()).anyMatch(p -> p.contains("no HELP or TYPE"));
    }

    @Test
    void counterWithoutTotal_reported() {
        assertThat(ExpositionLint.check("# HELP hits Hits.\n# TYPE hits counter\nhits 1\n").problems())
                .containsExactly("hits: counter metrics should have \"_total\" suffix");
    }

    @Test
    void duplicateSeries_reported() {
        String text = "# HELP up Up.\n# TYPE up gauge\nup{a=\"1\",b=\"2\"} 1\nup{b=\"2\",a=\"1\"} 1\n";
        assertThat(ExpositionLint.check(text).problems()).singleElement().asString().contains("duplicate series");
    }

    @Test
    void invalidNames_reported() {
        String text = "# HELP up Up.\n# TYPE up gauge\nup{__reserved=\"1\"} 1\nup{9bad=\"1\"} 1\n";
        assertThat(ExpositionLint.check(text).problems()).hasSize(2).allMatch(p -> p.contains("invalid label name"));
        assertThat(ExpositionLint.check("# HELP 1up Up.\n# TYPE 1up gauge\n1up 1\n").problems())
                .anyMatch(p -> p.contains("invalid metric name"));
    }

    @Test
    void camelCaseAndNonBaseUnits_reported() {
        assertThat(ExpositionLint.check("# HELP fooBar_milliseconds X.\n# TYPE fooBar_milliseconds gauge\n"
                + "fooBar_milliseconds 1\n").problems())
                .anyMatch(p -> p.contains("snake_case")).anyMatch(p -> p.contains("base unit"));
    }

    @Test
    void abbreviatedUnit_reported() {
        assertThat(ExpositionLint.check("# HELP cpu_time_ns_total X.\n# TYPE cpu_time_ns_total counter\n"
                + "cpu_time_ns_total 1\n").problems()).containsExactly(
                        "cpu_time_ns_total: metric names should not contain abbreviated units");
    }

    @Test
    void histogramWithoutInfBucket_reported() {
        String text = "# HELP d_seconds D.\n# TYPE d_seconds histogram\nd_seconds_bucket{le=\"1\"} 1\n"
                + "d_seconds_count 1\nd_seconds_sum 1\n";
        assertThat(ExpositionLint.check(text).problems()).anyMatch(p -> p.contains("+Inf"));
    }

    @Test
    void reservedSuffixOnGauge_reported() {
        assertThat(ExpositionLint.check("# HELP x_count X.\n# TYPE x_count gauge\nx_count 1\n").problems())
                .anyMatch(p -> p.contains("\"_count\" suffix"));
    }

    @Test
    void familyDeclaredTwice_reported() {
        String text = "# HELP up Up.\n# TYPE up gauge\nup 1\n# HELP other O.\n# TYPE other gauge\nother 1\n"
                + "# HELP up Up.\n# TYPE up gauge\n";
        assertThat(ExpositionLint.check(text).problems()).anyMatch(p -> p.contains("declared again"));
    }

    @Test
    void badEscapeAndBadValue_reported() {
        String text = "# HELP up Up.\n# TYPE up gauge\nup{a=\"x\\q\"} 1\nup{a=\"y\"} one\n";
        assertThat(ExpositionLint.check(text).problems()).anyMatch(p -> p.contains("invalid escape"))
                .anyMatch(p -> p.contains("not a number"));
    }
}
