package io.pdgateway.server.scrape;

import io.pdgateway.engine.EngineMetricNames;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The exposition reader sums a name's series, and skips comments, other names and malformed lines. */
class PrometheusTextTest {
    @Test
    void sumsSeries_skipsNoise() {
        String text = """
                # HELP vllm:num_requests_waiting Number of requests waiting.
                # TYPE vllm:num_requests_waiting gauge
                vllm:num_requests_waiting{engine="0",model_name="m"} 3.0
                vllm:num_requests_waiting{engine="1",model_name="m"} 2
                vllm:kv_cache_usage_perc{model_name="a \\"quoted\\" } name"} 0.25 1700000000000
                vllm:generation_tokens_total{model_name="m"} NaN
                vllm:request_prefill_time_seconds_sum{model_name="m"} 1.5e-1
                vllm:request_prefill_time_seconds_count{model_name="m"} 3
                vllm:num_requests_running{model_name="m"} 9
                garbage line without value
                vllm:num_requests_waiting{broken 4
                """;
        Map<String, Double> sums = PrometheusText.sums(text, EngineMetricNames.VLLM.wanted());
        assertThat(sums.get("vllm:num_requests_waiting")).isEqualTo(5.0);
        assertThat(sums.get("vllm:kv_cache_usage_perc")).isEqualTo(0.25);
        assertThat(sums.get("vllm:request_prefill_time_seconds_sum")).isCloseTo(0.15, within(1e-12));
        assertThat(sums).doesNotContainKey("vllm:generation_tokens_total").doesNotContainKey("vllm:num_requests_running");
    }

    @Test
    void enginesReadTheirOwnNamesAndPaths() {
        assertThat(EngineMetricNames.TRTLLM.path()).isEqualTo("/prometheus/metrics");
        assertThat(EngineMetricNames.SGLANG.wanted()).contains("sglang:num_queue_reqs", "sglang:token_usage",
                "sglang:gen_throughput", "sglang:num_prefill_prealloc_queue_reqs");
        assertThat(PrometheusText.sums("sglang:gen_throughput 120.5\n", Set.of("sglang:gen_throughput")))
                .containsEntry("sglang:gen_throughput", 120.5);
    }

    @Test
    void namesMatchWhole_neverAPrefixOrAnExtension() {
        String text = """
                vllm:num_requests_waitin 100
                vllm:num_requests_waiting_total 200
                vllm:num_requests_waiting 4
                vllm:cache_config_info_old{block_size="8",num_gpu_blocks="1"} 1
                vllm:cache_config{block_size="32",num_gpu_blocks="2"} 1
                vllm:cache_config_info{block_size="16",num_gpu_blocks="1000"} 1
                """;
        assertThat(PrometheusText.sums(text, EngineMetricNames.VLLM.wanted()))
                .containsExactlyEntriesOf(Map.of("vllm:num_requests_waiting", 4.0));
        assertThat(PrometheusText.labels(text, "vllm:cache_config_info"))
                .isEqualTo(Map.of("block_size", "16", "num_gpu_blocks", "1000"));
    }

    @Test
    void counterRate_overAboutASecond_resetsOnRestart() {
        CounterRate rate = new CounterRate();
        assertThat(rate.add(0, 100)).isNaN();
        assertThat(rate.add(500_000_000L, 150)).isCloseTo(100, within(1e-9));
        assertThat(rate.add(1_000_000_000L, 300)).isCloseTo(200, within(1e-9));
        assertThat(rate.add(1_100_000_000L, 5)).as("counter went down: engine restarted").isNaN();
    }
}
