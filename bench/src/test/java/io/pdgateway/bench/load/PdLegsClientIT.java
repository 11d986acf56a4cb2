package io.pdgateway.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.engine.trtllm.TrtRequestIds;
import io.pdgateway.sim.RecordedRequest;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import io.pdgateway.workload.LoadRequest;
import io.pdgateway.workload.LoadSchedule;
import io.pdgateway.workload.prompt.PromptPlan;
import io.pdgateway.workload.run.RunRecording;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The PD overhead benchmark's reference, a client running both legs itself, really does prefill/decode on simulated
 * vLLM, SGLang and TensorRT-LLM pairs: every answer streams whole from the decode pod, which took its KV from the
 * prefill pod instead of computing the prompt itself, and the prefill pod saw one one-token leg per request.
 */
class PdLegsClientIT {
    /** Loopback addresses of their own, apart from the other integration tests' pods. */
    private static final String HOST = "127.0.9.3";
    private static final int REQUESTS = 12;
    private static final int OUTPUT_TOKENS = 5;
    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() {
        vertx.close().await();
    }

    private SimPod pod(String engine, SimRole role) {
        return SimPod.start(vertx, SimConfig.builder().engine(engine).role(role).host(HOST).timeScale(0.01)
                .bootstrapPort(0).build()).await();
    }

    private RunRecording run(PdLegsClient.Protocol protocol, SimPod prefill, SimPod decode) {
        List<LoadRequest> requests = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            requests.add(new LoadRequest(i * 20L, PromptPlan.single(200, i), OUTPUT_TOKENS, null));
        }
        PdLegsClient client = PdLegsClient.open(vertx, protocol, Endpoint.local(HOST, prefill.port()),
                Endpoint.local(HOST, decode.port()), prefill.bootstrapPort(), SimConfig.DEFAULT_MODEL);
        RunRecording run = new LoadRunner(client, ProgressLine.silent(), 10_000).run(new LoadSchedule("pd", requests));
        client.close().await();
        return run;
    }

    private static void assertEveryAnswerStreamedWhole(RunRecording run) {
        assertThat(run.abandoned()).isZero();
        assertThat(run.results()).hasSize(REQUESTS).allSatisfy(r -> {
            assertThat(r.error()).isNull();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.outputTokens()).isEqualTo(OUTPUT_TOKENS);
            assertThat(r.ttfbMillis()).isGreaterThanOrEqualTo(0);
        });
    }

    /** The number at a JSON pointer in each of the pod's inference legs. */
    private static List<Long> numbers(SimPod pod, String pointer) {
        return legs(pod).stream().map(r -> r.json().at(pointer).asLong()).toList();
    }

    /** A prefill and a decode pod of the engine after the run: every answer streamed whole, no decode without KV. */
    private record Pair(SimPod prefill, SimPod decode) {}

    private Pair servedWhole(String engine, PdLegsClient.Protocol protocol) {
        Pair pair = new Pair(pod(engine, SimRole.PREFILL), pod(engine, SimRole.DECODE));
        assertEveryAnswerStreamedWhole(run(protocol, pair.prefill(), pair.decode()));
        assertThat(pair.decode().kvMissing()).isZero();
        return pair;
    }

    private static List<RecordedRequest> legs(SimPod pod) {
        return pod.recordedRequests().stream().filter(r -> r.path().equals("/v1/chat/completions")).toList();
    }

    @Test
    @Timeout(60)
    void vllm_prefillsFirst_andTheDecodeFetchesTheKv() {
        Pair pair = servedWhole("vllm", PdLegsClient.Protocol.VLLM);

        assertThat(pair.prefill().kvTransfersServed()).isEqualTo(REQUESTS);
        assertThat(legs(pair.prefill())).hasSize(REQUESTS).allSatisfy(r -> {
            assertThat(r.json().path("max_tokens").asInt()).isEqualTo(1);
            assertThat(r.json().path("stream").asBoolean()).isFalse();
            assertThat(r.json().path("kv_transfer_params").path("do_remote_decode").asBoolean()).isTrue();
        });
        assertThat(legs(pair.decode())).hasSize(REQUESTS).allSatisfy(r -> {
            assertThat(r.json().path("max_tokens").asInt()).isEqualTo(OUTPUT_TOKENS);
            assertThat(r.json().path("kv_transfer_params").path("do_remote_prefill").asBoolean()).isTrue();
        });
    }

    @Test
    @Timeout(60)
    void sglang_sendsBothLegsWithOneBootstrapRoom() {
        Pair pair = servedWhole("sglang", PdLegsClient.Protocol.SGLANG);

        List<Long> prefillRooms = numbers(pair.prefill(), "/bootstrap_room");
        List<Long> decodeRooms = numbers(pair.decode(), "/bootstrap_room");
        assertThat(prefillRooms).hasSize(REQUESTS).doesNotHaveDuplicates();
        assertThat(decodeRooms).containsExactlyInAnyOrderElementsOf(prefillRooms);
        assertThat(legs(pair.decode())).allSatisfy(r -> assertThat(r.json().path("bootstrap_port").asInt())
                .isEqualTo(pair.prefill().bootstrapPort()));
    }

    @Test
    @Timeout(60)
    void trtllm_contextFirst_theGenerationLegCarriesTheContextAnswersParams() {
        Pair pair = servedWhole("trtllm", PdLegsClient.Protocol.TRTLLM);

        List<Long> contextIds = legs(pair.prefill()).stream().map(r -> {
            assertThat(r.json().path("max_tokens").asInt()).isEqualTo(1);
            assertThat(r.json().at("/disaggregated_params/request_type").asText()).isEqualTo("context_only");
            return r.json().at("/disaggregated_params/disagg_request_id").asLong();
        }).toList();
        assertThat(contextIds).hasSize(REQUESTS).doesNotHaveDuplicates()
                .allSatisfy(id -> assertThat(id).isGreaterThanOrEqualTo(TrtRequestIds.MIN_GLOBAL_ID));
        assertThat(legs(pair.decode())).hasSize(REQUESTS).allSatisfy(r -> {
            assertThat(r.json().path("max_tokens").asInt()).isEqualTo(OUTPUT_TOKENS);
            assertThat(r.json().at("/disaggregated_params/request_type").asText()).isEqualTo("generation_only");
        });
        assertThat(numbers(pair.decode(), "/disaggregated_params/disagg_request_id"))
                .containsExactlyInAnyOrderElementsOf(contextIds);
    }

    @Test
    @Timeout(60)
    void trtllm_generationFirst_bothLegsAtOnce_theGenerationLegNamesTheContextWorker() {
        Pair pair = servedWhole("trtllm", PdLegsClient.Protocol.TRTLLM_GENERATION_FIRST);

        assertThat(pair.prefill().recordedRequests().stream().filter(r -> r.path().equals("/server_info")))
                .as("the context worker's metadata, read once").hasSize(1);
        List<Long> contextIds = legs(pair.prefill()).stream().map(r -> {
            assertThat(r.json().at("/disaggregated_params/request_type").asText()).isEqualTo("context_only");
            assertThat(r.json().at("/disaggregated_params/schedule_style").asInt()).isEqualTo(1);
            return r.json().at("/disaggregated_params/disagg_request_id").asLong();
        }).toList();
        assertThat(contextIds).hasSize(REQUESTS).doesNotHaveDuplicates();
        assertThat(legs(pair.decode())).hasSize(REQUESTS).allSatisfy(r -> {
            assertThat(r.json().at("/disaggregated_params/request_type").asText()).isEqualTo("generation_only");
            assertThat(r.json().at("/disaggregated_params/ctx_info_endpoint").asText()).isNotEmpty();
        });
        assertThat(numbers(pair.decode(), "/disaggregated_params/ctx_request_id"))
                .containsExactlyInAnyOrderElementsOf(contextIds);
    }
}
