package io.pdgateway.sim.vllm;

import static io.pdgateway.sim.SimTestSupport.FAST;
import static io.pdgateway.sim.SimTestSupport.await;
import static io.pdgateway.sim.SimTestSupport.chat;
import static io.pdgateway.sim.SimTestSupport.get;
import static io.pdgateway.sim.SimTestSupport.post;
import static io.pdgateway.sim.SimTestSupport.prometheus;
import static io.pdgateway.sim.SimTestSupport.sample;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.sim.RawHttp;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.TimingProfile;
import io.pdgateway.sim.api.PrometheusText;
import io.vertx.core.Vertx;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * /metrics is well-formed Prometheus text with vLLM's names and the model_name label, and it tells the truth:
 * running and waiting follow the engine (max_num_seqs 1 makes a second request wait), token counters add up,
 * and a repeated prompt hits the prefix cache in whole 16-token blocks.
 */
class VllmMetricsTest {

    private static final String LONG_PROMPT = "The quick brown fox jumps over the lazy dog near the river bank. ".repeat(8);

    private static Vertx vertx;
    private static SimPod pod;

    @BeforeAll
    static void startPod() {
        vertx = Vertx.vertx();
        SimConfig config = SimConfig.builder().host("127.0.0.7").timeScale(FAST)
                .timing(TimingProfile.llama3_8b_h100().withMaxNumSeqs(1)).build();
        pod = await(SimPod.start(vertx, config));
    }

    @AfterEach
    void noStreamLeftOpen() {
        await().atMost(Duration.ofSeconds(5)).until(() -> pod.openStreams() == 0);
    }

    @AfterAll
    static void stop() {
        await(pod.close());
        await(vertx.close());
    }

    private static Map<String, Double> scrape() {
        HttpResponse<String> response = get(pod, "/metrics");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).hasValue(PrometheusText.CONTENT_TYPE);
        return prometheus(response.body());
    }

    @Test
    void page_hasVllmNamesWithModelLabel() {
        Map<String, Double> samples = scrape();

        for (String name : new String[] {"vllm:num_requests_running", "vllm:num_requests_waiting",
                "vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc", "vllm:prompt_tokens_total",
                "vllm:generation_tokens_total", "vllm:num_requests_success_total",
                "vllm:time_to_first_token_seconds_count", "vllm:request_prefill_time_seconds_sum"}) {
            assertThat(sample(samples, name, "model_name=\"my-model\"")).as(name).isGreaterThanOrEqualTo(0);
        }
        assertThat(sample(samples, "vllm:request_success_total", "finished_reason=\"length\"")).isNotNegative();
        assertThat(sample(samples, "vllm:time_to_first_token_seconds_bucket", "le=\"+Inf\"")).isNotNegative();
    }

    @Test
    void cacheConfigInfo_givesTheKvCacheSize_asVllmDoes() {
        String page = get(pod, "/metrics").body();
        int blocks = TimingProfile.llama3_8b_h100().kvCapacityTokens() / 16; // 434,000 tokens in 16-token blocks

        // An info metric: one sample at 1, CacheConfig's fields as labels, and not the model's.
        assertThat(sample(prometheus(page), "vllm:cache_config_info", "block_size=\"16\"",
                "num_gpu_blocks=\"" + blocks + "\"", "engine=\"0\"")).isEqualTo(1.0);
        assertThat(page).containsOnlyOnce("vllm:cache_config_info{").doesNotContain("vllm:cache_config_info{model_name");
    }

    @Test
    void countersAndHistograms_addUpAfterRequests() {
        Map<String, Double> before = scrape();

        post(pod, "/v1/completions", "{\"model\":\"my-model\",\"prompt\":\"12345678\",\"max_tokens\":3}");

        Map<String, Double> after = scrape();
        assertThat(sample(after, "vllm:prompt_tokens_total") - sample(before, "vllm:prompt_tokens_total")).isEqualTo(2);
        assertThat(sample(after, "vllm:generation_tokens_total") - sample(before, "vllm:generation_tokens_total"))
                .isEqualTo(3);
        assertThat(sample(after, "vllm:request_success_total", "\"length\"")
                - sample(before, "vllm:request_success_total", "\"length\"")).isEqualTo(1);
        assertThat(sample(after, "vllm:time_to_first_token_seconds_count")
                - sample(before, "vllm:time_to_first_token_seconds_count")).isEqualTo(1);
        // Engine seconds: a 2-token prefill costs a + b·2 ≈ 20 ms of modelled time, whatever the time scale.
        double ttft = sample(after, "vllm:time_to_first_token_seconds_sum")
                - sample(before, "vllm:time_to_first_token_seconds_sum");
        assertThat(ttft).isBetween(0.015, 1.0);
    }

    @Test
    void longStreamInFlight_runningRises_secondRequestWaits() throws Exception {
        try (RawHttp http = RawHttp.connect(pod.host(), pod.port(), Duration.ofSeconds(5))) {
            http.post("/v1/chat/completions", chat("my-model", "keep talking", 20_000, true));
            assertThat(http.readHead().status()).isEqualTo(200);
            http.readChunk();

            await().atMost(Duration.ofSeconds(2)).until(() -> sample(scrape(), "vllm:num_requests_running") == 1);
            assertThat(sample(scrape(), "vllm:kv_cache_usage_perc")).isGreaterThan(0);

            try (RawHttp second = RawHttp.connect(pod.host(), pod.port(), Duration.ofSeconds(5))) {
                second.post("/v1/completions", "{\"model\":\"my-model\",\"prompt\":\"me too\",\"max_tokens\":1}");
                // max_num_seqs is 1: the second request waits until the first leaves.
                await().atMost(Duration.ofSeconds(2)).until(() -> sample(scrape(), "vllm:num_requests_waiting") == 1);
                http.close();
                assertThat(second.readHead().status()).isEqualTo(200);
            }
        }
        await().atMost(Duration.ofSeconds(2)).until(() -> sample(scrape(), "vllm:num_requests_running") == 0);
        assertThat(sample(scrape(), "vllm:num_requests_waiting")).isZero();
        assertThat(sample(scrape(), "vllm:request_success_total", "\"abort\"")).isGreaterThanOrEqualTo(1);
    }

    @Test
    void repeatedPrompt_hitsPrefixCacheInWholeBlocks() {
        String body = chat("my-model", LONG_PROMPT, 1, false);
        post(pod, "/v1/chat/completions", body);
        double hitsBefore = sample(scrape(), "vllm:prefix_cache_hits_total");

        post(pod, "/v1/chat/completions", body);

        // 520 characters → 130 tokens → 8 full blocks of 16 = 128 cached tokens.
        assertThat(sample(scrape(), "vllm:prefix_cache_hits_total") - hitsBefore).isEqualTo(128);
    }
}
