package io.pdgateway.engine.vllm;

import io.pdgateway.engine.EngineAdapter;
import io.pdgateway.engine.EngineMetricNames;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.JsonBodies;
import io.pdgateway.engine.LegPlan;
import io.pdgateway.engine.LegRequest;
import io.pdgateway.engine.PrefillBodies;
import io.pdgateway.engine.PromptBatches;
import io.pdgateway.engine.TokenizeSupport;
import io.pdgateway.engine.TopLevelJson;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * vLLM disaggregated prefill (reference §1.2): prefill first with max_tokens 1, then the client's own body to the
 * decode pod carrying what the prefill returned. The connector is chosen per prefill pod.
 *
 * <p>Both legs are the client's bytes with top-level edits ({@link TopLevelJson}), as for SGLang and TensorRT-LLM:
 * no JSON tree of the body is built, and every member the gateway does not own reaches the pods as the client sent it.
 *
 * <p>{@code kv_transfer_params} and {@code disagg_prefill_resp} say where a pod fetches KV from, so on both legs they
 * are the gateway's alone: a client's own are dropped, and only what the gateway asks for and what the discovered
 * prefill pod answered goes out.
 */
public final class VllmAdapter implements EngineAdapter {
    public static final String ENGINE = "vllm";
    static final String KV_TRANSFER_PARAMS = "kv_transfer_params";
    static final String DISAGG_PREFILL_RESP = "disagg_prefill_resp";
    static final String REMOTE_HOST = "remote_host";
    private static final Set<String> KV_OBJECT = Set.of(KV_TRANSFER_PARAMS);

    /**
     * What a prefill leg with the shfs connector asks for: keep the KV for a remote decode and say where it is. Written
     * out once; every prefill body carries these bytes.
     */
    private static final byte[] REMOTE_DECODE_REQUEST = ("{\"do_remote_decode\":true,\"do_remote_prefill\":false,"
            + "\"remote_engine_id\":null,\"remote_block_ids\":null,\"remote_host\":null,\"remote_port\":null}")
            .getBytes(StandardCharsets.US_ASCII);

    /** The {@code kv_transfer_params} of a shfs prefill leg (a fresh copy): what any client of the protocol sends. */
    public static byte[] remoteDecodeRequest() {
        return REMOTE_DECODE_REQUEST.clone();
    }

    @Override
    public String engine() {
        return ENGINE;
    }

    @Override
    public EngineMetricNames metrics() {
        return EngineMetricNames.VLLM;
    }

    @Override
    public TokenizeSupport tokenize() {
        return TokenizeSupport.PROMPTS_AND_MESSAGES;
    }

    /** The body's top-level members, read once at admission for both legs' edits; a batch of prompts is refused. */
    @Override
    public TopLevelJson admit(TopLevelJson body) throws EngineProtocolException {
        PromptBatches.requireOne(body, ENGINE, "the prefill answer carries the first prompt's KV-transfer parameters"
                + " only");
        return body;
    }

    @Override
    public LegPlan plan(LegRequest request) throws EngineProtocolException {
        TopLevelJson body = PrefillBodies.oneToken(withoutKvLocation(client(request)), true);
        if (connector(request) == KvConnector.SHFS) {
            body.setRaw(KV_TRANSFER_PARAMS, REMOTE_DECODE_REQUEST);
        }
        return LegPlan.sequential(body.toBytes());
    }

    @Override
    public byte[] decodeBody(LegRequest request, LegPlan plan, byte[] prefillResponse) throws EngineProtocolException {
        // One pass over the answer, kv_transfer_params' members included: it lists a block id per 16 prompt tokens.
        TopLevelJson response = TopLevelJson.parse(prefillResponse, KV_OBJECT);
        TopLevelJson body = withoutKvLocation(client(request));
        if (connector(request) == KvConnector.NIXL) {
            return body.setRaw(DISAGG_PREFILL_RESP, trimmed(prefillResponse)).toBytes();
        }
        TopLevelJson params = response.object(KV_TRANSFER_PARAMS);
        if (params != null) {
            // The engine reports the address it knows itself by; the gateway knows the one the decode pod can reach.
            return body.setRaw(KV_TRANSFER_PARAMS, params.set(REMOTE_HOST, request.prefill().ip()).toBytes()).toBytes();
        }
        byte[] kv = response.rawValue(KV_TRANSFER_PARAMS);
        if (kv == null || kv[0] == 'n') { // absent or null: a value starting with n can only be null
            // Upstream behaviour: the decode pod then recomputes the prompt; slower, not wrong.
            return body.toBytes();
        }
        throw new EngineProtocolException("prefill response kv_transfer_params is a JSON "
                + JsonBodies.kind(JsonBodies.parse(kv)) + ", expected an object");
    }

    /** A fresh copy of the body admission read (edits accumulate on a TopLevelJson), or a read of the raw body. */
    private TopLevelJson client(LegRequest request) throws EngineProtocolException {
        return request.admitted() instanceof TopLevelJson admitted ? admitted.copy()
                : TopLevelJson.parse(request.raw());
    }

    private static TopLevelJson withoutKvLocation(TopLevelJson body) {
        return body.remove(KV_TRANSFER_PARAMS).remove(DISAGG_PREFILL_RESP);
    }

    /** The JSON value without the blanks around it, to embed in another body. */
    private static byte[] trimmed(byte[] json) {
        int from = 0;
        int to = json.length;
        while (from < to && isBlank(json[from])) {
            from++;
        }
        while (to > from && isBlank(json[to - 1])) {
            to--;
        }
        return from == 0 && to == json.length ? json : java.util.Arrays.copyOfRange(json, from, to);
    }

    private static boolean isBlank(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    private static KvConnector connector(LegRequest request) {
        return KvConnector.resolve(request.prefill().kvConnectorType(), request.defaultKvConnector());
    }
}
