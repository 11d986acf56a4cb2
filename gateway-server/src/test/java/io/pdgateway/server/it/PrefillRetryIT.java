package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.SimPod;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A prefill that fails transiently before anything reached the client is retried once elsewhere: on another complete
 * pair, or a standard pod when none is left (bucketing on). Transient means a refused or broken connection or a 502,
 * 503 or 504 from the pod; a 4xx, a 500 and a timeout are never retried. The client sees x-error-pd-prefill only
 * when every attempt failed; retries are counted; PD_GATEWAY_PREFILL_RETRY=false turns it off; the first attempt's
 * charges are gone before the retry's are taken; SGLang's concurrent decode of the failed pair is aborted.
 *
 * <p>Most tests use one pair and a standard pod, so the first decision is the pair and the retry, which excludes the
 * failed prefill pod, can only be the standard pod: deterministic without leaning on tie-breaks.
 */
class PrefillRetryIT {
    private static final String CHAT = "/v1/chat/completions";
    private static final Map<String, String> PD_WITH_STANDARD = Map.of("ROUTING_ALGORITHM", "pd",
            "AIBRIX_PROMPT_LENGTH_BUCKETING", "true", "AIBRIX_PREFILL_REQUEST_TIMEOUT", "1");
    @AutoClose
    private TestCluster cluster;

    private TestCluster pairAndStandard(String engine, Map<String, String> env) throws Exception {
        return new TestCluster(engine).prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .standard("standard-0").startGateway(env);
    }

    private String metrics() throws Exception {
        return cluster.get("/metrics").body();
    }

    /** A fault on the prefill pod that the gateway sees as transient, by name. */
    record Transient(String name, UnaryOperator<TestCluster> inject, String status, int code) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Transient> transientFaults() {
        return Stream.of(
                new Transient("502", c -> fault(c, FaultConfig.none().withErrors(1.0, 502)), "http_error", 502),
                new Transient("503", c -> fault(c, FaultConfig.none().withErrors(1.0, 503)), "http_error", 503),
                new Transient("504", c -> fault(c, FaultConfig.none().withErrors(1.0, 504)), "http_error", 504),
                new Transient("connection reset", c -> fault(c, FaultConfig.none().withDropAfterTokens(0)), "error", 502),
                new Transient("connection refused", c -> {
                    c.stopPod("prefill-0");
                    return c;
                }, "error", 502));
    }

    private static TestCluster fault(TestCluster cluster, FaultConfig faults) {
        cluster.simPod("prefill-0").setFaults(faults);
        return cluster;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transientFaults")
    void transientPrefillFailure_retriedOnTheStandardPod_clientSeesA200(Transient fault) throws Exception {
        cluster = fault.inject().apply(pairAndStandard("vllm", PD_WITH_STANDARD));

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("retry me", 4, true), "x-pd-debug", "true");

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.body()).endsWith("data: [DONE]\n\n");
        assertThat(response.headers().firstValue("target-pod")).contains("standard-0");
        assertThat(response.headers().firstValue("prefill-target-pod")).as("the serving attempt had no prefill").isEmpty();
        assertThat(response.headers().firstValue("x-error-pd-prefill")).isEmpty();
        assertThat(response.headers().firstValue("x-pd-decision")).hasValueSatisfying(
                d -> assertThat(d).contains("bucket-fallback"));
        assertThat(cluster.inferenceRequests("decode-0")).as("the failed pair's decode never ran").isEmpty();
        assertThat(cluster.inferenceRequests("standard-0")).hasSize(1);
        assertThat(metrics())
                .contains("pd_gateway_prefill_retries_total{model=\"my-model\",status=\"" + fault.status()
                        + "\",status_code=\"" + fault.code() + "\",to=\"standard\"} 1.0")
                .contains("gateway_prefill_request_fail_total{status=\"" + fault.status() + "\",status_code=\""
                        + fault.code() + "\"} 1.0")
                .doesNotContain("status=\"pd_prefill_fail\"");
    }

    static Stream<Arguments> permanentFailures() {
        return Stream.of(new Arguments("500 is the engine's own failure", 500, 502),
                new Arguments("422 is the request's fault", 422, 422),
                new Arguments("429 is the client's rate", 429, 429));
    }

    /** A prefill status and what the client gets for it. */
    record Arguments(String name, int podStatus, int clientStatus) {
        @Override
        public String toString() {
            return name;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("permanentFailures")
    void nonTransientStatus_neverRetried_clientGetsThePrefillError(Arguments row) throws Exception {
        cluster = pairAndStandard("vllm", PD_WITH_STANDARD);
        cluster.simPod("prefill-0").setFaults(FaultConfig.none().withErrors(1.0, row.podStatus()));

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("no retry", 4, false));

        assertThat(response.statusCode()).isEqualTo(row.clientStatus());
        assertThat(response.headers().firstValue("x-error-pd-prefill")).contains("true");
        assertThat(cluster.inferenceRequests("standard-0")).isEmpty();
        assertThat(metrics()).doesNotContain("pd_gateway_prefill_retries_total{");
    }

    @Test
    void prefillTimeout_neverRetried_504WithinTheTimeoutPlusOneSecond() throws Exception {
        cluster = pairAndStandard("vllm", PD_WITH_STANDARD);
        cluster.simPod("prefill-0").setFaults(FaultConfig.none().withHangBeforeHeaders());
        long started = System.nanoTime();

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("slow prefill", 4, false));

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(2));
        assertThat(response.statusCode()).isEqualTo(504);
        assertThat(response.headers().firstValue("x-error-pd-prefill")).contains("true");
        assertThat(cluster.inferenceRequests("standard-0")).as("the timeout already spent the budget").isEmpty();
    }

    @Test
    void everyAttemptFails_prefillHeaderWithTheLastFailure_exactlyOneRetry() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "rs-0").decode("decode-0", "rs-0")
                .prefill("prefill-1", "rs-1").decode("decode-1", "rs-1")
                .prefill("prefill-2", "rs-2").decode("decode-2", "rs-2")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd"));
        for (String prefill : new String[] {"prefill-0", "prefill-1", "prefill-2"}) {
            cluster.simPod(prefill).setFaults(FaultConfig.none().withErrors(1.0, 503));
        }

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("all down", 4, false));

        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.headers().firstValue("x-error-pd-prefill")).contains("true");
        int attempts = 0;
        for (String prefill : new String[] {"prefill-0", "prefill-1", "prefill-2"}) {
            attempts += cluster.simPod(prefill).errorsInjected();
        }
        assertThat(attempts).as("the first try and one retry, never a third").isEqualTo(2);
        assertThat(metrics())
                .contains("pd_gateway_prefill_retries_total{model=\"my-model\",status=\"http_error\","
                        + "status_code=\"503\",to=\"pd_pair\"} 1.0")
                .contains("status=\"pd_prefill_fail\",status_code=\"502\"} 1.0");
    }

    @Test
    void failingPairChosenFirst_retriedOnTheOtherPair_headersNameTheServingPair() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "rs-0").decode("decode-0", "rs-0")
                .prefill("prefill-1", "rs-1").decode("decode-1", "rs-1")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_PREFILL_SCORE_POLICY", "least_request",
                        "AIBRIX_DECODE_SCORE_POLICY", "least_request"));
        SimPod failing = cluster.simPod("prefill-0");
        failing.setFaults(FaultConfig.none().withErrors(1.0, 503));
        cluster.simPod("decode-1").setFaults(FaultConfig.none().withHangAfterTokens(1));
        // Two streams held on rs-1 (wherever they were tried first, rs-0 cannot serve them): decode-1 runs 2, decode-0
        // at most its cold-start score 1, so rs-0 = 0 + 1/2 beats rs-1 = 0 + 2/2 and the router tries the failing pair
        // first.
        try (RawStream first = new RawStream(cluster.gateway().port(), CHAT, TestCluster.chat("hold one", 20, true));
                RawStream second = new RawStream(cluster.gateway().port(), CHAT, TestCluster.chat("hold two", 20, true))) {
            await().atMost(Duration.ofSeconds(5)).until(() -> first.contentEvents() >= 1 && second.contentEvents() >= 1);
            cluster.simPod("decode-1").setFaults(FaultConfig.none());
            int before = failing.errorsInjected();

            HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("retried", 3, true));

            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            assertThat(failing.errorsInjected()).as("tried on the failing pair first").isEqualTo(before + 1);
            assertThat(response.headers().firstValue("prefill-target-pod")).contains("prefill-1");
            assertThat(response.headers().firstValue("target-pod")).contains("decode-1");
            assertThat(response.headers().firstValue("x-error-pd-prefill")).isEmpty();
            assertThat(cluster.inferenceRequests("decode-0")).isEmpty();
            assertThat(metrics()).contains("pd_gateway_prefill_retries_total{model=\"my-model\",status=\"http_error\","
                    + "status_code=\"503\",to=\"pd_pair\"} " + failing.errorsInjected() + ".0");
        }
    }

    @Test
    void retryDisabled_firstFailureIsTheAnswer() throws Exception {
        Map<String, String> env = new java.util.HashMap<>(PD_WITH_STANDARD);
        env.put("PD_GATEWAY_PREFILL_RETRY", "false");
        cluster = pairAndStandard("vllm", env);
        cluster.simPod("prefill-0").setFaults(FaultConfig.none().withErrors(1.0, 503));

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("no second chance", 4, false));

        assertThat(response.statusCode()).isEqualTo(502);
        assertThat(response.headers().firstValue("x-error-pd-prefill")).contains("true");
        assertThat(cluster.inferenceRequests("standard-0")).isEmpty();
    }

    @Test
    void retryHeldByItsPod_onlyTheRetryIsCharged_thenEverythingReturnsToZero() throws Exception {
        cluster = pairAndStandard("vllm", PD_WITH_STANDARD);
        cluster.simPod("prefill-0").setFaults(FaultConfig.none().withErrors(1.0, 503));
        cluster.simPod("standard-0").setFaults(FaultConfig.none().withHangAfterTokens(1));
        var ledger = cluster.gateway().routing().session().requests();

        try (RawStream stream = new RawStream(cluster.gateway().port(), CHAT, TestCluster.chat("held", 20, true))) {
            await().atMost(Duration.ofSeconds(5)).until(stream::contentEvents, n -> n >= 1);
            // The failed pair holds nothing: its prefill and decode were released before the standard pod was charged.
            assertThat(ledger.outstanding()).as("one running request on the standard pod, nothing else").isEqualTo(1);
            assertThat(cluster.gateway().routing().session().tokens().outstandingTokens()).isZero();
            assertThat(cluster.gateway().metrics().inFlight()).isEqualTo(1);
            assertThat(cluster.gateway().metrics().prefillOutstanding()).isZero();
        }
        cluster.assertQuiescent();
    }

    @Test
    void prefillKilledMidRequest_retriedOnTheStandardPod() throws Exception {
        cluster = pairAndStandard("vllm", Map.of("ROUTING_ALGORITHM", "pd", "AIBRIX_PROMPT_LENGTH_BUCKETING", "true"));
        SimPod prefill = cluster.simPod("prefill-0");
        prefill.setFaults(FaultConfig.none().withHangBeforeHeaders());
        CompletableFuture<HttpResponse<String>> pending = CompletableFuture.supplyAsync(() -> {
            try {
                return cluster.post(CHAT, TestCluster.chat("killed under me", 4, false));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> prefill.openStreams() == 1);

        cluster.stopPod("prefill-0");

        HttpResponse<String> response = pending.get();
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("target-pod")).contains("standard-0");
        assertThat(metrics()).contains("pd_gateway_prefill_retries_total{model=\"my-model\",status=\"error\","
                + "status_code=\"502\",to=\"standard\"} 1.0");
    }

    @Test
    void sglangPrefill503_waitingDecodeAborted_retriedOnTheStandardPod() throws Exception {
        cluster = pairAndStandard("sglang", PD_WITH_STANDARD);
        SimPod decode = cluster.simPod("decode-0");
        cluster.simPod("prefill-0").setFaults(FaultConfig.none().withErrors(1.0, 503));

        HttpResponse<String> response = cluster.post(CHAT, TestCluster.chat("sglang retry", 4, true));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("target-pod")).contains("standard-0");
        assertThat(response.body()).endsWith("data: [DONE]\n\n");
        await().atMost(Duration.ofSeconds(3)).untilAsserted(() -> {
            assertThat(decode.requestsAborted()).as("the decode waited for a KV that never comes").isEqualTo(1);
            assertThat(decode.openStreams()).isZero();
        });
    }
}
