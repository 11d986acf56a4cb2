package io.pdgateway.core.tokenize;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A chat request as vLLM hands it to a chat template, in the "string" content format that Llama's and Qwen's templates
 * are written for: each message's content is one string (its text parts joined by newlines, none when it has no
 * content), an assistant's tool calls carry their arguments as objects (parsed from the client's JSON text, {@code {}}
 * when that is not JSON), a tool message keeps its {@code tool_call_id}, and any message its string {@code name}. The
 * request's {@code tools} and {@code documents} become variables, and its {@code chat_template_kwargs} are laid over
 * them, as vLLM lays them over its own. Engines that count those tokens and a gateway that must hash the same blocks
 * both start here.
 */
final class ChatConversation {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The content parts that are text, and the field each keeps it in (vLLM's text-like part types). */
    private static final Map<String, String> TEXT_PARTS = Map.of("text", "text", "input_text", "text",
            "output_text", "text", "refusal", "refusal", "thinking", "thinking");

    private ChatConversation() {}

    /** The messages of the request's {@code messages} array, ready for a template. */
    static List<Map<String, Object>> messages(JsonNode messages) throws TokenizerFormatException {
        if (messages == null || !messages.isArray()) {
            throw new TokenizerFormatException("a chat request's messages must be an array");
        }
        List<Map<String, Object>> out = new ArrayList<>(messages.size());
        for (JsonNode message : messages) {
            if (!message.isObject() || !message.path("role").isTextual()) {
                throw new TokenizerFormatException("each message must be an object with a role");
            }
            out.add(message(message));
        }
        return out;
    }

    private static Map<String, Object> message(JsonNode message) {
        String role = message.get("role").asText();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("role", role);
        out.put("content", content(message.get("content")));
        JsonNode toolCalls = message.get("tool_calls");
        if (role.equals("assistant") && toolCalls != null && toolCalls.isArray() && !toolCalls.isEmpty()) {
            out.put("tool_calls", toolCalls(toolCalls));
        }
        JsonNode reasoning = message.get("reasoning");
        if (role.equals("assistant") && reasoning != null && reasoning.isTextual()) {
            out.put("reasoning", reasoning.asText());
            out.put("reasoning_content", reasoning.asText());
        }
        if (role.equals("tool") && message.has("tool_call_id")) {
            out.put("tool_call_id", plain(message.get("tool_call_id")));
        }
        if (message.path("name").isTextual()) {
            out.put("name", message.get("name").asText());
        }
        return out;
    }

    /** A string as it is; a list of parts as their texts joined by newlines; nothing as the empty string. */
    private static String content(JsonNode content) {
        if (content == null || content.isNull()) {
            return "";
        }
        if (content.isTextual()) {
            return content.asText();
        }
        List<String> texts = new ArrayList<>();
        for (JsonNode part : content) {
            if (part.isTextual()) {
                texts.add(part.asText());
            } else {
                String field = TEXT_PARTS.get(part.path("type").asText());
                if (field != null && part.path(field).isTextual()) {
                    texts.add(part.get(field).asText());
                }
            }
        }
        return String.join("\n", texts);
    }

    @SuppressWarnings("unchecked")
    private static List<Object> toolCalls(JsonNode toolCalls) {
        List<Object> calls = (List<Object>) plain(toolCalls);
        for (Object call : calls) {
            if (call instanceof Map<?, ?> map && map.get("function") instanceof Map<?, ?> function) {
                ((Map<String, Object>) function).put("arguments", arguments(function.get("arguments")));
            }
        }
        return calls;
    }

    /** Templates expect arguments as an object: a JSON text is parsed, anything else that is not one becomes {}. */
    private static Object arguments(Object arguments) {
        if (arguments instanceof String text) {
            try {
                Object parsed = JSON.readValue(text, Object.class);
                return parsed instanceof Map || parsed instanceof List ? parsed : new HashMap<>();
            } catch (JsonProcessingException e) {
                return new HashMap<>();
            }
        }
        return arguments instanceof Map || arguments instanceof List ? arguments : new HashMap<>();
    }

    /**
     * The variables beside {@code messages}: {@code add_generation_prompt} (the request's, default true),
     * {@code continue_final_message}, {@code tools} and {@code documents} when given, then the request's
     * {@code chat_template_kwargs} over them ({@link ChatTemplate#render} sets {@code messages} last, as vLLM
     * passes the conversation apart from the kwargs).
     */
    static Map<String, Object> variables(JsonNode request) {
        Map<String, Object> variables = new HashMap<>();
        variables.put("add_generation_prompt", request.path("add_generation_prompt").asBoolean(true));
        variables.put("continue_final_message", request.path("continue_final_message").asBoolean(false));
        for (String name : List.of("tools", "documents")) {
            JsonNode value = request.get(name);
            if (value != null && value.isArray()) {
                variables.put(name, plain(value));
            }
        }
        JsonNode kwargs = request.get("chat_template_kwargs");
        if (kwargs != null && kwargs.isObject()) {
            kwargs.fields().forEachRemaining(field -> variables.put(field.getKey(), plain(field.getValue())));
        }
        return variables;
    }

    private static Object plain(JsonNode node) {
        return JSON.convertValue(node, Object.class);
    }
}
