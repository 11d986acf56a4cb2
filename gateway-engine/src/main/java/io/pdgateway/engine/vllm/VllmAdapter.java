package io.pdgateway.engine.vllm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.engine.EngineAdapter;
import io.pdgateway.engine.EngineMetricNames;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.JsonBodies;
import io.pdgateway.engine.LegPlan;
import io.pdgateway.engine.LegRequest;
import io.pdgateway.engine.PrefillBodies;

/**
 * vLLM disaggregated prefill (reference §1.2): prefill first with max_tokens 1, then the client's own body to the
 * decode pod carrying what the prefill returned. The connector is chosen per prefill pod.
 *
 * <p>{@code kv_transfer_params} and {@code disagg_prefill_resp} say where a pod fetches KV from, so on both legs they
 * are the gateway's alone: a client's own are dropped, and only what the gateway asks for and what the discovered
 * prefill pod answered goes out.
 */
public final class VllmAdapter implements EngineAdapter {
    public static final String ENGINE = "vllm";
    static final String KV_TRANSFER_PARAMS = "kv_transfer_params";
    static final String DISAGG_PREFILL_RESP = "disagg_prefill_resp";

    @Override
    public String engine() {
        return ENGINE;
    }

    @Override
    public EngineMetricNames metrics() {
        return EngineMetricNames.VLLM;
    }

    @Override
    public LegPlan plan(LegRequest request) {
        return LegPlan.sequential(prefillBody(request));
    }

    private static byte[] prefillBody(LegRequest request) {
        ObjectNode body = PrefillBodies.oneToken(request.body());
        body.remove(KV_TRANSFER_PARAMS);
        body.remove(DISAGG_PREFILL_RESP);
        if (connector(request) == KvConnector.SHFS) {
            askForRemoteDecode(body);
        }
        return JsonBodies.write(body);
    }

    /**
     * Makes a prefill body ask the prefill pod to keep the KV for a remote decode and say where it is (the
     * {@code kv_transfer_params} a vLLM prefill leg carries with the shfs connector).
     */
    public static ObjectNode askForRemoteDecode(ObjectNode prefillBody) {
        ObjectNode kv = prefillBody.putObject(KV_TRANSFER_PARAMS);
        kv.put("do_remote_decode", true);
        kv.put("do_remote_prefill", false);
        kv.putNull("remote_engine_id");
        kv.putNull("remote_block_ids");
        kv.putNull("remote_host");
        kv.putNull("remote_port");
        return prefillBody;
    }

    @Override
    public byte[] decodeBody(LegRequest request, LegPlan plan, byte[] prefillResponse) throws EngineProtocolException {
        ObjectNode response = JsonBodies.parseObject(prefillResponse);
        ObjectNode body = request.body().deepCopy();
        body.remove(KV_TRANSFER_PARAMS);
        body.remove(DISAGG_PREFILL_RESP);
        if (connector(request) == KvConnector.NIXL) {
            body.set(DISAGG_PREFILL_RESP, response);
            return JsonBodies.write(body);
        }
        JsonNode kv = response.get(KV_TRANSFER_PARAMS);
        if (kv == null || kv.isNull()) {
            // Upstream behaviour: the decode pod then recomputes the prompt; slower, not wrong.
            return JsonBodies.write(body);
        }
        if (!kv.isObject()) {
            throw new EngineProtocolException("prefill response kv_transfer_params is a JSON " + JsonBodies.kind(kv)
                    + ", expected an object");
        }
        ObjectNode params = ((ObjectNode) kv).deepCopy();
        // The engine reports the address it knows itself by; the gateway knows the one the decode pod can reach.
        params.put("remote_host", request.prefill().ip());
        body.set(KV_TRANSFER_PARAMS, params);
        return JsonBodies.write(body);
    }

    private static KvConnector connector(LegRequest request) {
        return KvConnector.resolve(request.prefill().kvConnectorType(), request.defaultKvConnector());
    }
}
