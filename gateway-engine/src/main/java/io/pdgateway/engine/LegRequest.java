package io.pdgateway.engine;

import io.pdgateway.core.model.Pod;

/**
 * Everything an adapter needs to plan the legs of one PD request. {@code raw} is the client's body as the gateway
 * forwards it: adapters edit copies of it ({@link TopLevelJson}), never the bytes themselves.
 *
 * @param path the client's request path; both legs use it
 * @param admitted what {@link EngineAdapter#admit} returned for this body (the adapter's own parse), or null
 * @param defaultKvConnector AIBRIX_KV_CONNECTOR_TYPE, used when the prefill pod has no valid label
 * @param requestId the request's x-request-id
 * @param prerequisite the prefill pod's metadata when {@link EngineAdapter#prerequisite()} asks for it, else null
 */
public record LegRequest(String path, byte[] raw, Object admitted, Pod prefill, Pod decode,
        String defaultKvConnector, String requestId, Object prerequisite) {

    public LegRequest withPrerequisite(Object value) {
        return new LegRequest(path, raw, admitted, prefill, decode, defaultKvConnector, requestId, value);
    }
}
