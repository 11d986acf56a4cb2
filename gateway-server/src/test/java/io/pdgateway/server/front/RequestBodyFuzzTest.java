package io.pdgateway.server.front;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import io.pdgateway.engine.EngineAdapter;
import io.pdgateway.engine.EngineAdapters;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.JsonBodies;
import io.pdgateway.engine.LegPlan;
import io.pdgateway.engine.LegRequest;
import io.pdgateway.engine.TopLevelJson;
import io.pdgateway.engine.trtllm.TrtServerInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A seeded, bounded JSON fuzz over what a client body goes through: the request parser and every engine's body
 * rewriting (vLLM, SGLang, TensorRT-LLM context_first and generation_first). Properties, for every case: the parser
 * either accepts or refuses with a 400; an adapter either plans or refuses with {@link EngineProtocolException};
 * nothing else is ever thrown; every body sent to a pod is a JSON object; and SGLang's and TensorRT-LLM's legs keep
 * every byte of the client's body outside the keys the adapter owns (runs of untouched members appear verbatim and in
 * order). A failure prints the seed, the case and the body, which reproduce it. {@code -Dfuzz.cases=N} and
 * {@code -Dfuzz.seed=S} run a longer or another campaign.
 */
class RequestBodyFuzzTest {
    /** Enough to reach every mutation and key many times over, at well under five seconds on one core. */
    private static final int DEFAULT_CASES = 4_000;
    private static final long DEFAULT_SEED = 20_261_129L;
    private static final Set<String> SGLANG_DECODE_KEYS = Set.of("bootstrap_host", "bootstrap_port", "bootstrap_room",
            "rid");
    private static final Set<String> SGLANG_PREFILL_KEYS = Set.of("bootstrap_host", "bootstrap_port", "bootstrap_room",
            "rid", "max_tokens", "max_completion_tokens", "stream", "stream_options", "min_tokens");
    private static final Set<String> VLLM_PREFILL_KEYS = Set.of("kv_transfer_params", "disagg_prefill_resp",
            "max_tokens", "max_completion_tokens", "stream", "stream_options", "min_tokens");
    private static final Set<String> VLLM_DECODE_KEYS = Set.of("kv_transfer_params", "disagg_prefill_resp");
    private static final Set<String> TRT_PREFILL_KEYS = Set.of("disaggregated_params", "max_tokens",
            "max_completion_tokens", "stream", "stream_options", "min_tokens");
    private static final Set<String> TRT_DECODE_KEYS = Set.of("disaggregated_params", "max_tokens",
            "max_completion_tokens", "prompt", "prompt_token_ids");
    private static final byte[] VLLM_PREFILL_ANSWER = ("{\"id\":\"c\",\"choices\":[{\"text\":\"x\"}],"
            + "\"kv_transfer_params\":{\"do_remote_prefill\":true,\"remote_engine_id\":\"e\",\"remote_block_ids\":[1],"
            + "\"remote_host\":\"10.0.0.1\",\"remote_port\":5600}}").getBytes(StandardCharsets.UTF_8);
    private static final byte[] TRT_PREFILL_ANSWER = ("{\"id\":\"c\",\"choices\":[{\"disaggregated_params\":"
            + "{\"request_type\":\"context_only\",\"first_gen_tokens\":[7],\"ctx_request_id\":9007199254740993}}],"
            + "\"prompt_token_ids\":[1,2,3]}").getBytes(StandardCharsets.UTF_8);

    private static final Pod PREFILL = new Pod("default", "p", "my-model", "10.0.0.1", 8000, 8000, "vllm",
            PodRole.PREFILL, "rs", null, 8998, null, Map.of());
    private static final Pod DECODE = new Pod("default", "d", "my-model", "10.0.0.2", 8000, 8000, "vllm",
            PodRole.DECODE, "rs", null, 8998, null, Map.of());

    private final EngineAdapter vllm;
    private final EngineAdapter sglang;
    private final EngineAdapter trtContextFirst;
    private final EngineAdapter trtGenerationFirst;

    RequestBodyFuzzTest() {
        SplittableRandom rooms = new SplittableRandom(1);
        EngineAdapters contextFirst = EngineAdapters.create(GatewaySettings.defaults().engines(), rooms, InstantSource.system());
        vllm = contextFirst.forEngine("vllm");
        sglang = contextFirst.forEngine("sglang");
        trtContextFirst = contextFirst.forEngine("trtllm");
        trtGenerationFirst = EngineAdapters.create(GatewaySettings.fromEnv(Map.of("AIBRIX_TRT_SCHEDULE_STYLE",
                "generation_first")).engines(), rooms, InstantSource.system()).forEngine("trtllm");
    }

    @Test
    void hostileBodies_onlyDocumentedRefusals_andUntouchedBytesKept() {
        int cases = Integer.getInteger("fuzz.cases", DEFAULT_CASES);
        long seed = Long.getLong("fuzz.seed", DEFAULT_SEED);
        JsonFuzzer fuzzer = new JsonFuzzer(seed);
        int accepted = 0;
        for (int i = 0; i < cases; i++) {
            byte[] body = fuzzer.next();
            String path = i % 3 == 0 ? OpenAiRequestParser.COMPLETIONS_PATH : OpenAiRequestParser.CHAT_PATH;
            try {
                if (exercise(path, body, fuzzer)) {
                    accepted++;
                }
            } catch (AssertionError | RuntimeException e) {
                fail("seed " + seed + ", case " + i + ", " + path + ", body (base64) "
                        + Base64.getEncoder().encodeToString(body) + ": " + new String(body, StandardCharsets.UTF_8), e);
            }
        }
        // The campaign must reach the adapters, not only the parser's refusals.
        assertThat(accepted).as("cases the parser accepted").isGreaterThan(cases / 10);
    }

    /** Runs one body through the parser and every adapter; true when the parser accepted it. */
    private boolean exercise(String path, byte[] body, JsonFuzzer fuzzer) {
        OpenAiRequest request;
        try {
            request = OpenAiRequestParser.parse(path, body);
        } catch (OpenAiRequestParser.Rejected e) {
            assertThat(e.error().status()).isEqualTo(400);
            return false;
        }
        // The parser drops the client's KV-location fields; the adapters see, and must keep, the rest byte for byte.
        com.fasterxml.jackson.databind.node.ObjectNode sent = reparse(request.raw());
        for (String field : OpenAiRequestParser.KV_LOCATION_FIELDS) {
            assertThat(sent.has(field)).as(field + " in the bytes").isFalse();
        }
        // The members the validating scan noted are the ones a parse of the bytes finds: edits give the same bytes.
        assertThat(new String(request.members().remove("model").set("stream", false).toBytes(), StandardCharsets.UTF_8))
                .isEqualTo(new String(members(request.raw()).remove("model").set("stream", false).toBytes(),
                        StandardCharsets.UTF_8));
        LegRequest legs = new LegRequest(path, request.raw(), null, PREFILL, DECODE, "shfs", "req-1", null);
        runSequential(vllm, legs, fuzzer.prefillResponse(VLLM_PREFILL_ANSWER), VLLM_PREFILL_KEYS, VLLM_DECODE_KEYS);
        LegPlan plan = plan(sglang, legs);
        if (plan != null) {
            assertUntouched(request.raw(), plan.prefillBody(), SGLANG_PREFILL_KEYS);
            assertUntouched(request.raw(), plan.decodeBody(), SGLANG_DECODE_KEYS);
        }
        runSequential(trtContextFirst, legs, fuzzer.prefillResponse(TRT_PREFILL_ANSWER), TRT_PREFILL_KEYS,
                TRT_DECODE_KEYS);
        plan = plan(trtGenerationFirst, legs.withPrerequisite(new TrtServerInfo("http://10.0.0.1:8001", 0, "state")));
        if (plan != null) {
            assertUntouched(request.raw(), plan.prefillBody(), TRT_PREFILL_KEYS);
            assertUntouched(request.raw(), plan.decodeBody(), TRT_DECODE_KEYS);
        }
        return true;
    }

    private static TopLevelJson members(byte[] raw) {
        try {
            return TopLevelJson.parse(raw);
        } catch (EngineProtocolException e) {
            throw new AssertionError("the parser's bytes are not a JSON object: " + e.getMessage(), e);
        }
    }

    private static com.fasterxml.jackson.databind.node.ObjectNode reparse(byte[] raw) {
        try {
            return io.pdgateway.engine.JsonBodies.parseObject(raw);
        } catch (EngineProtocolException e) {
            throw new AssertionError("the parser's bytes are not a JSON object: " + e.getMessage(), e);
        }
    }

    /** Validation and planning: a plan, or null after the documented refusal. */
    private static LegPlan plan(EngineAdapter adapter, LegRequest legs) {
        try {
            adapter.admit(TopLevelJson.parse(legs.raw()));
            LegPlan plan = adapter.plan(legs);
            assertJsonObject(plan.prefillBody());
            if (plan.decodeBody() != null) {
                assertJsonObject(plan.decodeBody());
            }
            return plan;
        } catch (EngineProtocolException refused) {
            return null;
        }
    }

    /** A sequential engine's prefill body and, from the (possibly mangled) prefill answer, its decode body. */
    private static void runSequential(EngineAdapter adapter, LegRequest legs, byte[] prefillAnswer,
            Set<String> prefillKeys, Set<String> decodeKeys) {
        LegPlan plan = plan(adapter, legs);
        if (plan == null) {
            return;
        }
        if (!prefillKeys.isEmpty()) {
            assertUntouched(legs.raw(), plan.prefillBody(), prefillKeys);
        }
        byte[] decode;
        try {
            decode = adapter.decodeBody(legs, plan, prefillAnswer);
        } catch (EngineProtocolException refused) {
            return;
        }
        assertJsonObject(decode);
        if (!decodeKeys.isEmpty()) {
            assertUntouched(legs.raw(), decode, decodeKeys);
        }
    }

    private static void assertJsonObject(byte[] body) {
        try {
            JsonBodies.parseObject(body);
        } catch (EngineProtocolException e) {
            throw new AssertionError("a leg body is not a JSON object (" + e.getMessage() + "): "
                    + new String(body, StandardCharsets.UTF_8));
        }
    }

    /**
     * Every run of consecutive top-level members the adapter does not own appears in the leg's body byte for byte
     * (keys, values and the separators between them), and the runs keep their order.
     */
    private static void assertUntouched(byte[] client, byte[] leg, Set<String> owned) {
        String legText = new String(leg, StandardCharsets.ISO_8859_1); // one char per byte: offsets stay byte offsets
        int from = 0;
        for (String run : untouchedRuns(client, owned)) {
            int at = legText.indexOf(run, from);
            if (at < 0) {
                throw new AssertionError("bytes outside " + owned + " changed: the client's "
                        + new String(run.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8)
                        + " is not in the leg body " + new String(leg, StandardCharsets.UTF_8));
            }
            from = at + run.length();
        }
    }

    /** The client's top-level members, as byte spans from a key to the end of its value, merged while untouched. */
    private static List<String> untouchedRuns(byte[] body, Set<String> owned) {
        List<String> runs = new ArrayList<>();
        try (JsonParser parser = new JsonFactory().createParser(body)) {
            parser.nextToken();
            int runStart = -1;
            int runEnd = -1;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                int keyStart = (int) parser.currentTokenLocation().getByteOffset();
                parser.nextToken();
                parser.skipChildren();
                parser.finishToken();
                int valueEnd = (int) parser.currentLocation().getByteOffset();
                if (owned.contains(name)) {
                    if (runStart >= 0) {
                        runs.add(new String(body, runStart, runEnd - runStart, StandardCharsets.ISO_8859_1));
                    }
                    runStart = -1;
                } else {
                    if (runStart < 0) {
                        runStart = keyStart;
                    }
                    runEnd = valueEnd;
                }
            }
            if (runStart >= 0) {
                runs.add(new String(body, runStart, runEnd - runStart, StandardCharsets.ISO_8859_1));
            }
        } catch (IOException e) {
            throw new AssertionError("the adapter accepted a body the oracle cannot read", e);
        }
        return runs;
    }
}
