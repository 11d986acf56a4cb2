package io.pdgateway.server.front;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.JsonBodies;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The request parser as it was before issue 16 (a whole JSON tree per body, the JDK's UTF-8 decoder), kept as the
 * oracle the streaming parser is compared with: what it accepted, refused, and read from a body is the contract.
 */
final class TreeParserOracle {
    /** What the tree parser read, or the client error it answered. */
    record Outcome(ApiError error, String model, boolean stream, String promptText, int promptTokenIds,
            boolean kvLocation) {}

    private TreeParserOracle() {}

    static Outcome parse(String path, byte[] raw) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(raw);
        CharBuffer out = CharBuffer.allocate(4096);
        CoderResult result;
        do {
            out.clear();
            result = decoder.decode(in, out, true);
        } while (result.isOverflow());
        if (result.isError() || decoder.flush(out).isError()) {
            return refused(ApiError.of(400, "request body is not valid UTF-8 (at byte " + in.position() + ")",
                    "invalid_json"));
        }
        ObjectNode body;
        try {
            body = JsonBodies.parseObject(raw);
        } catch (EngineProtocolException e) {
            return refused(ApiError.of(400, "request body is not a valid JSON object: " + e.getMessage(),
                    "invalid_json"));
        }
        JsonNode model = body.get("model");
        if (model == null || !model.isTextual() || model.asText().isBlank()) {
            return refused(reject("\"model\" is required and must be a non-empty string", "model"));
        }
        JsonNode stream = body.get("stream");
        if (stream != null && !stream.isNull() && !stream.isBoolean()) {
            return refused(reject("\"stream\" must be a boolean", "stream"));
        }
        StringBuilder text = new StringBuilder();
        int tokenIds = -1;
        if (OpenAiRequestParser.CHAT_PATH.equals(path)) {
            JsonNode messages = body.get("messages");
            if (messages == null || !messages.isArray() || messages.isEmpty()) {
                return refused(reject("\"messages\" is required and must be a non-empty array", "messages"));
            }
            for (JsonNode message : messages) {
                if (!message.isObject()) {
                    return refused(reject("each entry of \"messages\" must be an object", "messages"));
                }
                appendContent(text, message.get("content"));
            }
        } else {
            JsonNode prompt = body.get("prompt");
            if (prompt == null || prompt.isNull()) {
                return refused(reject("\"prompt\" is required", "prompt"));
            }
            if (prompt.isTextual()) {
                text.append(prompt.asText());
            } else if (prompt.isArray() && !prompt.isEmpty() && prompt.get(0).isNumber()) {
                tokenIds = prompt.size();
            } else if (prompt.isArray() && !prompt.isEmpty() && prompt.get(0).isArray()) {
                tokenIds = 0;
                for (JsonNode part : prompt) {
                    if (!part.isArray()) {
                        return refused(reject(RequestBodyScan.PROMPT_SHAPES, "prompt"));
                    }
                    tokenIds += part.size();
                }
            } else if (prompt.isArray()) {
                for (JsonNode part : prompt) {
                    if (!part.isTextual()) {
                        return refused(reject(RequestBodyScan.PROMPT_SHAPES, "prompt"));
                    }
                    appendContent(text, part);
                }
            } else {
                return refused(reject(RequestBodyScan.PROMPT_SHAPES, "prompt"));
            }
        }
        boolean kv = OpenAiRequestParser.KV_LOCATION_FIELDS.stream().anyMatch(body::has);
        return new Outcome(null, model.asText(), stream != null && stream.asBoolean(false), text.toString(), tokenIds,
                kv);
    }

    private static void appendContent(StringBuilder text, JsonNode content) {
        if (content == null || content.isNull()) {
            return;
        }
        if (!text.isEmpty()) {
            text.append(' ');
        }
        text.append(content.isTextual() ? content.asText() : content.toString());
    }

    private static ApiError reject(String message, String param) {
        return ApiError.of(400, message, "invalid_request").withParam(param);
    }

    private static Outcome refused(ApiError error) {
        return new Outcome(error, null, false, null, -1, false);
    }
}
