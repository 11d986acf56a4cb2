package io.pdgateway.server.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.engine.EngineMetricNames;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An engine's KV cache size as the scraper reads it: vLLM's cache_config_info labels (blocks × block size), SGLang's
 * max_total_num_tokens gauge, and nothing (NaN, so the kvCacheCapacityTokens setting applies) when a label is absent
 * or not a positive number.
 */
class KvCapacityTokensTest {
    private static double vllm(String labels) {
        String text = "vllm:num_requests_waiting{model_name=\"m\"} 0.0\n"
                + "vllm:cache_config_info{" + labels + "} 1.0\n";
        return EngineMetricsScraper.kvCapacityTokens(EngineMetricNames.VLLM, text,
                PrometheusText.sums(text, EngineMetricNames.VLLM.wanted()));
    }

    @Test
    void vllm_blocksTimesBlockSize() {
        assertThat(vllm("block_size=\"16\",cache_dtype=\"auto\",num_gpu_blocks=\"27125\",engine=\"0\""))
                .isEqualTo(434_000);
    }

    @Test
    void vllm_withoutAUsableSize_isUnknown() {
        assertThat(vllm("block_size=\"16\",num_gpu_blocks=\"None\"")).isNaN(); // before the cache is sized
        assertThat(vllm("block_size=\"16\"")).isNaN();
        assertThat(vllm("block_size=\"16\",num_gpu_blocks=\"0\"")).isNaN();
        assertThat(vllm("block_size=\"16\",num_gpu_blocks=\"-5\"")).isNaN();
        assertThat(vllm("block_size=\"16\",num_gpu_blocks=\"1.2.3\"")).isNaN();
        assertThat(vllm("block_size=\"16\",num_gpu_blocks=\"1e9\"")).isNaN();
        assertThat(vllm("block_size=\"\",num_gpu_blocks=\"1000\"")).isNaN();
        assertThat(EngineMetricsScraper.kvCapacityTokens(EngineMetricNames.VLLM, "", Map.of())).isNaN();
    }

    @Test
    void sglang_theGauge() {
        String text = "sglang:max_total_num_tokens{model_name=\"m\"} 471258.0\n";
        assertThat(EngineMetricsScraper.kvCapacityTokens(EngineMetricNames.SGLANG, text,
                PrometheusText.sums(text, EngineMetricNames.SGLANG.wanted()))).isEqualTo(471_258);
    }

    @Test
    void positiveNumber_plainDecimalsOnly() {
        assertThat(EngineMetricsScraper.positiveNumber("16")).isEqualTo(16);
        assertThat(EngineMetricsScraper.positiveNumber("0.5")).isEqualTo(0.5);
        assertThat(EngineMetricsScraper.positiveNumber(null)).isNaN();
        assertThat(EngineMetricsScraper.positiveNumber("None")).isNaN();
        assertThat(EngineMetricsScraper.positiveNumber("١٦")).isNaN(); // digits, but not ASCII ones
    }
}
