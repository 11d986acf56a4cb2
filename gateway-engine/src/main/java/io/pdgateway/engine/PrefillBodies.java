package io.pdgateway.engine;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** The prefill rewrite every engine shares (reference §1.1): one token, no stream, no streaming or min-length options. */
public final class PrefillBodies {
    private PrefillBodies() {}

    /** A copy of the client body made into a one-token, non-streaming request. */
    public static ObjectNode oneToken(ObjectNode clientBody) {
        ObjectNode body = clientBody.deepCopy();
        body.put("max_tokens", 1);
        body.put("max_completion_tokens", 1);
        body.put("stream", false);
        body.remove("stream_options");
        body.remove("min_tokens");
        return body;
    }
}
