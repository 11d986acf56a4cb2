package io.pdgateway.engine.trtllm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.engine.EngineAdapter;
import io.pdgateway.engine.EngineMetricNames;
import io.pdgateway.engine.PodPrerequisite;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.JsonBodies;
import io.pdgateway.engine.LegPlan;
import io.pdgateway.engine.LegRequest;
import io.pdgateway.engine.LegSchedule;
import io.pdgateway.engine.PrefillBodies;
import io.pdgateway.engine.PromptBatches;
import io.pdgateway.engine.TopLevelJson;
import java.util.List;

/**
 * TensorRT-LLM disaggregated serving through {@code disaggregated_params} (reference §1.4, spec "TensorRT-LLM
 * Parallel Scheduling"). Every body edit is a top-level byte edit and every id is written as an integer literal, so a
 * 64-bit {@code disagg_request_id} never passes through a double.
 * <ul>
 *   <li>context_first (default, sequential): the context leg carries {@code context_only} and a fresh Snowflake id;
 *       the generation leg gets the params the context worker answered, as {@code generation_only}, and the
 *       context's {@code prompt_token_ids} ({@code prompt_token_ids} for chat, {@code prompt} for completions);</li>
 *   <li>generation_first (concurrent): both legs carry one shared id and {@code schedule_style} 1; the generation
 *       leg also names the context worker from its {@code /server_info}.</li>
 * </ul>
 * TensorRT-LLM rejects {@code max_completion_tokens}: both legs lose it, and the generation leg keeps its value as
 * {@code max_tokens} when the client set no max_tokens, so the client's limit still holds.
 */
public final class TrtllmAdapter implements EngineAdapter {
    public static final String ENGINE = "trtllm";
    public static final String SERVER_INFO_PATH = "/server_info";
    public static final String DISAGGREGATED_PARAMS = "disaggregated_params";
    public static final String CONTEXT_ONLY = "context_only";
    public static final String GENERATION_ONLY = "generation_only";
    /** TensorRT-LLM's DisaggScheduleStyle is an IntEnum on the wire; 1 = generation first. */
    public static final int SCHEDULE_GENERATION_FIRST = 1;
    static final String PROMPT_TOKEN_IDS = "prompt_token_ids";
    static final String COMPLETIONS_PATH = "/v1/completions";
    static final String CHAT_PATH = "/v1/chat/completions";
    /** Keys the adapter writes: each must appear once for a byte edit to mean one thing. */
    static final List<String> CONTROLLED_KEYS = List.of(DISAGGREGATED_PARAMS, "prompt", PROMPT_TOKEN_IDS, "max_tokens",
            "max_completion_tokens", "stream", "stream_options", "min_tokens");

    private final boolean generationFirst;
    private final TrtRequestIds ids;

    public TrtllmAdapter(boolean generationFirst, TrtRequestIds ids) {
        this.generationFirst = generationFirst;
        this.ids = ids;
    }

    @Override
    public String engine() {
        return ENGINE;
    }

    @Override
    public EngineMetricNames metrics() {
        return EngineMetricNames.TRTLLM;
    }

    @Override
    public TopLevelJson admit(TopLevelJson body) throws EngineProtocolException {
        PromptBatches.requireOne(body, ENGINE, "disaggregated serving takes a single prompt (its own disaggregated"
                + " server refuses a batch)");
        return body.requireUnique(CONTROLLED_KEYS);
    }

    /** generation_first needs the context worker's /server_info before either leg is sent. */
    @Override
    public PodPrerequisite prerequisite() {
        return generationFirst ? SERVER_INFO : null;
    }

    private static final PodPrerequisite SERVER_INFO = new PodPrerequisite(SERVER_INFO_PATH, TrtServerInfo::parse);

    @Override
    public LegPlan plan(LegRequest request) throws EngineProtocolException {
        TopLevelJson client = admitted(request);
        long id = ids.next();
        if (!generationFirst) {
            return LegPlan.sequential(prefill(client, params(CONTEXT_ONLY, id)));
        }
        TrtServerInfo info = request.prerequisite() instanceof TrtServerInfo known ? known : null;
        if (info == null) {
            throw new EngineProtocolException("generation_first needs the context worker's " + SERVER_INFO_PATH);
        }
        ObjectNode context = params(CONTEXT_ONLY, id).put("schedule_style", SCHEDULE_GENERATION_FIRST);
        ObjectNode generation = params(GENERATION_ONLY, id)
                .put("ctx_request_id", id)
                .put("schedule_style", SCHEDULE_GENERATION_FIRST)
                .put("ctx_info_endpoint", info.ctxInfoEndpoint())
                .put("ctx_dp_rank", info.ctxDpRank());
        if (info.encodedOpaqueState() != null) {
            generation.put("encoded_opaque_state", info.encodedOpaqueState());
        }
        byte[] decode = generation(client.copy()).setRaw(DISAGGREGATED_PARAMS, JsonBodies.write(generation)).toBytes();
        // No abort endpoint: closing a leg's connection makes TensorRT-LLM cancel it.
        return new LegPlan(LegSchedule.CONCURRENT, prefill(client, context), decode, null, null);
    }

    @Override
    public byte[] decodeBody(LegRequest request, LegPlan plan, byte[] prefillResponse) throws EngineProtocolException {
        if (plan.decodeBody() != null) {
            return plan.decodeBody();
        }
        ObjectNode response = JsonBodies.parseObject(prefillResponse);
        TopLevelJson decode = generation(admitted(request));
        JsonNode params = response.get(DISAGGREGATED_PARAMS);
        if (params == null || params.isNull()) {
            JsonNode first = response.path("choices").path(0);
            params = first.isObject() ? first.get(DISAGGREGATED_PARAMS) : null;
        }
        if (params == null || params.isNull()) {
            // Upstream behaviour: the generation worker then computes the prompt itself; slower, not wrong.
            return decode.toBytes();
        }
        if (!params.isObject()) {
            throw new EngineProtocolException("disaggregated_params is a JSON " + JsonBodies.kind(params)
                    + ", expected an object");
        }
        ObjectNode generation = ((ObjectNode) params).deepCopy();
        generation.put("request_type", GENERATION_ONLY);
        decode.setRaw(DISAGGREGATED_PARAMS, JsonBodies.write(generation));
        JsonNode promptIds = response.get(PROMPT_TOKEN_IDS);
        if (promptIds != null && promptIds.isArray()) {
            if (COMPLETIONS_PATH.equals(request.path())) {
                decode.setRaw("prompt", JsonBodies.write(promptIds));
            } else if (CHAT_PATH.equals(request.path())) {
                decode.setRaw(PROMPT_TOKEN_IDS, JsonBodies.write(promptIds));
            }
        }
        return decode.toBytes();
    }

    /** A fresh copy of the body admission parsed (edits accumulate on a TopLevelJson), or a parse of the raw body. */
    private TopLevelJson admitted(LegRequest request) throws EngineProtocolException {
        return request.admitted() instanceof TopLevelJson admitted ? admitted.copy()
                : admit(TopLevelJson.parse(request.raw()));
    }

    private static ObjectNode params(String requestType, long id) {
        ObjectNode params = JsonNodeFactory.instance.objectNode();
        params.put("request_type", requestType);
        params.put("disagg_request_id", id);
        return params;
    }

    private static byte[] prefill(TopLevelJson client, ObjectNode context) {
        return PrefillBodies.oneToken(client.setRaw(DISAGGREGATED_PARAMS, JsonBodies.write(context)), false).toBytes();
    }

    /** The client's body for the generation leg, max_completion_tokens carried over as max_tokens. */
    private static TopLevelJson generation(TopLevelJson body) {
        byte[] maxCompletion = body.rawValue("max_completion_tokens");
        if (maxCompletion != null) {
            body.remove("max_completion_tokens");
            if (!body.has("max_tokens")) {
                body.setRaw("max_tokens", maxCompletion);
            }
        }
        return body;
    }
}
