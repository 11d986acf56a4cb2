package io.pdgateway.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.core.model.Pod;
import io.pdgateway.engine.trtllm.TrtServerInfo;

/**
 * Everything an adapter needs to plan the legs of one PD request. {@code raw} and {@code body} are the client's body
 * as sent and as parsed: adapters copy them, never change them.
 *
 * @param path the client's request path; both legs use it
 * @param defaultKvConnector AIBRIX_KV_CONNECTOR_TYPE, used when the prefill pod has no valid label
 * @param requestId the request's x-request-id
 * @param serverInfo the prefill pod's metadata when {@link EngineAdapter#serverInfoPath()} asks for it, else null
 */
public record LegRequest(String path, byte[] raw, ObjectNode body, Pod prefill, Pod decode, String defaultKvConnector,
        String requestId, TrtServerInfo serverInfo) {

    public LegRequest withServerInfo(TrtServerInfo info) {
        return new LegRequest(path, raw, body, prefill, decode, defaultKvConnector, requestId, info);
    }
}
