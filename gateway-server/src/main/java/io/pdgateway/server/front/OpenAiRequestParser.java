package io.pdgateway.server.front;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.JsonBodies;
import io.pdgateway.engine.TopLevelJson;
import java.util.List;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Validates a chat or completions body and extracts what routing needs. Failures are 400s naming the field. */
public final class OpenAiRequestParser {
    public static final String CHAT_PATH = "/v1/chat/completions";
    public static final String COMPLETIONS_PATH = "/v1/completions";

    /** The top-level fields that say where an engine moves KV cache: only the gateway sets them. */
    static final List<String> KV_LOCATION_FIELDS = List.of("kv_transfer_params", "disagg_prefill_resp",
            "bootstrap_host", "bootstrap_port", "bootstrap_room", "disaggregated_params");

    /** The UTF-8 check decodes through a buffer this size: small, since the characters are thrown away. */
    private static final int UTF8_CHECK_BUFFER_CHARS = 4096;

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
        requireUtf8(raw);
        ObjectNode body;
        try {
            body = JsonBodies.parseObject(raw);
        } catch (EngineProtocolException e) {
            throw new Rejected(ApiError.of(400, "request body is not a valid JSON object: " + e.getMessage(),
                    "invalid_json"));
        }
        JsonNode model = body.get("model");
        if (model == null || !model.isTextual() || model.asText().isBlank()) {
            throw reject("\"model\" is required and must be a non-empty string", "model");
        }
        JsonNode stream = body.get("stream");
        if (stream != null && !stream.isNull() && !stream.isBoolean()) {
            throw reject("\"stream\" must be a boolean", "stream");
        }
        boolean streaming = stream != null && stream.asBoolean(false);
        StringBuilder text = new StringBuilder();
        int tokenIds = -1;
        if (CHAT_PATH.equals(path)) {
            JsonNode messages = body.get("messages");
            if (messages == null || !messages.isArray() || messages.isEmpty()) {
                throw reject("\"messages\" is required and must be a non-empty array", "messages");
            }
            for (JsonNode message : messages) {
                if (!message.isObject()) {
                    throw reject("each entry of \"messages\" must be an object", "messages");
                }
                appendContent(text, message.get("content"));
            }
        } else {
            JsonNode prompt = body.get("prompt");
            if (prompt == null || prompt.isNull()) {
                throw reject("\"prompt\" is required", "prompt");
            }
            if (prompt.isTextual()) {
                text.append(prompt.asText());
            } else if (prompt.isArray() && !prompt.isEmpty() && prompt.get(0).isNumber()) {
                tokenIds = prompt.size();
            } else if (prompt.isArray()) {
                for (JsonNode part : prompt) {
                    if (!part.isTextual()) {
                        throw reject("\"prompt\" must be a string, a list of strings or a list of token ids", "prompt");
                    }
                    appendContent(text, part);
                }
            } else {
                throw reject("\"prompt\" must be a string, a list of strings or a list of token ids", "prompt");
            }
        }
        return withoutKvLocation(new OpenAiRequest(path, body, raw, model.asText(), streaming, text.toString(),
                tokenIds));
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
        boolean present = false;
        for (String field : KV_LOCATION_FIELDS) {
            present |= request.body().has(field);
        }
        if (!present) {
            return request;
        }
        ObjectNode body = request.body().deepCopy();
        byte[] raw;
        try {
            TopLevelJson edit = TopLevelJson.parse(request.raw());
            for (String field : KV_LOCATION_FIELDS) {
                body.remove(field);
                edit.remove(field);
            }
            raw = edit.toBytes();
        } catch (EngineProtocolException e) {
            throw new Rejected(ApiError.of(400, "request body is not a valid JSON object: " + e.getMessage(),
                    "invalid_json"));
        }
        return new OpenAiRequest(request.path(), body, raw, request.model(), request.stream(), request.promptText(),
                request.promptTokenIds());
    }

    /**
     * RFC 8259: JSON exchanged between systems is UTF-8. Checked before the JSON parser reads the body, so that no byte
     * sequence means one thing here and another at the pod: the fuzz test found the parser's field-name table reading
     * a key with a stray 0xFF byte as the key without it. Decodes into a small buffer, over and over: it only checks.
     */
    private static void requireUtf8(byte[] raw) throws Rejected {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(raw);
        CharBuffer out = CharBuffer.allocate(UTF8_CHECK_BUFFER_CHARS);
        CoderResult result;
        do {
            out.clear();
            result = decoder.decode(in, out, true);
        } while (result.isOverflow());
        if (result.isError() || decoder.flush(out).isError()) {
            throw new Rejected(ApiError.of(400, "request body is not valid UTF-8 (at byte " + in.position() + ")",
                    "invalid_json"));
        }
    }

    /** Upstream's message text: string contents unquoted, structured contents as their JSON text, joined by spaces. */
    private static void appendContent(StringBuilder text, JsonNode content) {
        if (content == null || content.isNull()) {
            return;
        }
        if (!text.isEmpty()) {
            text.append(' ');
        }
        text.append(content.isTextual() ? content.asText() : content.toString());
    }

    private static Rejected reject(String message, String param) {
        return new Rejected(ApiError.of(400, message, "invalid_request").withParam(param));
    }
}
