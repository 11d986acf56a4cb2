package io.pdgateway.sim.api;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The error body SGLang and trtllm-serve both answer with, {@code {"object":"error", message, type, param, code}}:
 * both took the ErrorResponse of vLLM's earlier OpenAI protocol module.
 */
public final class ObjectErrorBody {

    private ObjectErrorBody() {
    }

    public static ObjectNode of(int status, String message) {
        ObjectNode body = JsonCodec.object();
        body.put("object", "error");
        body.put("message", message);
        body.put("type", status < 500 ? "BadRequestError" : "InternalServerError");
        body.putNull("param");
        body.put("code", status);
        return body;
    }
}
