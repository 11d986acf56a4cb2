package io.pdgateway.server.front;

import com.fasterxml.jackson.core.JsonToken;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.TopLevelJson;
import java.util.List;

/**
 * Validates a chat or completions body and extracts what routing needs, in one streaming pass and without building
 * a tree ({@link RequestBodyScan}). Failures are 400s naming the field.
 */
public final class OpenAiRequestParser {
    public static final String CHAT_PATH = "/v1/chat/completions";
    public static final String COMPLETIONS_PATH = "/v1/completions";

    /** The top-level fields that say where an engine moves KV cache: only the gateway sets them. */
    static final List<String> KV_LOCATION_FIELDS = List.of("kv_transfer_params", "disagg_prefill_resp",
            "bootstrap_host", "bootstrap_port", "bootstrap_room", "disaggregated_params");

    private OpenAiRequestParser() {}

    /** Thrown with the client-facing error. */
    public static final class Rejected extends Exception {
        private final transient ApiError error;

        Rejected(ApiError error) {
            super(error.message(), null, false, false);
            this.error = error;
        }

        public ApiError error() {
            return error;
        }
    }

    /** The GenAI semantic conventions' operation name of an API path: chat, or text_completion. */
    public static String operation(String path) {
        return CHAT_PATH.equals(path) ? "chat" : "text_completion";
    }

    public static OpenAiRequest parse(String path, byte[] raw) throws Rejected {
        boolean chat = CHAT_PATH.equals(path);
        // The usual body in one pass; any other, invalid or only unusual, through the UTF-8 check and the parser.
        RequestBodyScan body = FastBodyScan.scan(raw, chat);
        if (body == null) {
            requireUtf8(raw);
            try {
                body = RequestBodyScan.scan(raw, chat, false);
            } catch (EngineProtocolException e) {
                throw new Rejected(ApiError.of(400, "request body is not a valid JSON object: " + e.getMessage(),
                        "invalid_json"));
            }
        }
        if (body.model == null || body.model.isBlank()) {
            throw reject("\"model\" is required and must be a non-empty string", "model");
        }
        JsonToken stream = body.streamToken;
        if (stream != null && stream != JsonToken.VALUE_NULL && !stream.isBoolean()) {
            throw reject("\"stream\" must be a boolean", "stream");
        }
        RequestBodyScan.Prompt prompt = body.prompt;
        if (prompt == null) {
            throw chat ? reject("\"messages\" is required and must be a non-empty array", "messages")
                    : reject("\"prompt\" is required", "prompt");
        }
        if (prompt.invalid != null) {
            throw reject(prompt.invalid, chat ? "messages" : "prompt");
        }
        OpenAiRequest request = new OpenAiRequest(path, raw, body.model, body.streamValue, null, prompt.length,
                prompt.tokenIds, body.members, prompt.parts);
        return body.kvLocation ? withoutKvLocation(request) : request;
    }

    /** The prompt text of a body {@link #parse} accepted, built on demand (see {@link OpenAiRequest#promptText()}). */
    static String promptText(String path, byte[] raw) {
        try {
            return RequestBodyScan.scan(raw, CHAT_PATH.equals(path), true).prompt.text.toString();
        } catch (EngineProtocolException e) {
            throw new IllegalStateException("a validated body no longer parses", e);
        }
    }

    /** Where the prompt's parts lie in a body {@link #parse} accepted (see {@link OpenAiRequest#promptUtf8()}). */
    static PromptParts promptParts(String path, byte[] raw) {
        try {
            RequestBodyScan scan = FastBodyScan.scan(raw, CHAT_PATH.equals(path));
            return (scan != null ? scan : RequestBodyScan.scan(raw, CHAT_PATH.equals(path), false)).prompt.parts;
        } catch (EngineProtocolException e) {
            throw new IllegalStateException("a validated body no longer parses", e);
        }
    }

    /**
     * Drops the client's KV-location fields ({@link #KV_LOCATION_FIELDS}) from the request, on every path. They tell an
     * engine where to fetch KV cache from or to send it to (vLLM's kv_transfer_params and disagg_prefill_resp,
     * SGLang's bootstrap_host/port/room, TensorRT-LLM's disaggregated_params): on the PD path the gateway writes its
     * own, and a standard pod with a KV connector would otherwise connect wherever a client pointed it. Dropped rather
     * than refused, since SDKs that pass a prior response's fields along keep working; the rest of the body stays
     * byte for byte as sent.
     */
    static OpenAiRequest withoutKvLocation(OpenAiRequest request) throws Rejected {
        byte[] raw;
        try {
            TopLevelJson edit = TopLevelJson.parse(request.raw());
            for (String field : KV_LOCATION_FIELDS) {
                edit.remove(field);
            }
            raw = edit.toBytes();
        } catch (EngineProtocolException e) {
            throw new Rejected(ApiError.of(400, "request body is not a valid JSON object: " + e.getMessage(),
                    "invalid_json"));
        }
        // The edit moved the members and the prompt's parts: both are read again from the new bytes when needed.
        return new OpenAiRequest(request.path(), raw, request.model(), request.stream(), null, request.promptLength(),
                request.promptTokenIds(), null, null);
    }

    /**
     * RFC 8259: JSON exchanged between systems is UTF-8. Checked before the JSON parser reads the body, so that no byte
     * sequence means one thing here and another at the pod: the fuzz test found the parser's field-name table reading
     * a key with a stray 0xFF byte as the key without it.
     */
    private static void requireUtf8(byte[] raw) throws Rejected {
        int invalid = Utf8Check.firstInvalid(raw);
        if (invalid >= 0) {
            throw new Rejected(ApiError.of(400, "request body is not valid UTF-8 (at byte " + invalid + ")",
                    "invalid_json"));
        }
    }

    private static Rejected reject(String message, String param) {
        return new Rejected(ApiError.of(400, message, "invalid_request").withParam(param));
    }
}
