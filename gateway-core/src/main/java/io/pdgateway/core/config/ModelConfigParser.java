package io.pdgateway.core.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdgateway.core.model.ModelConfig;
import io.pdgateway.core.model.Profile;
import io.pdgateway.core.model.RoutingConfig;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parses the model.aibrix.ai/config annotation. Invalid input never throws: it returns a failure whose message
 * the caller logs, and the pod is treated as having no config (spec: an invalid annotation is ignored).
 */
public final class ModelConfigParser {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ModelConfigParser() {}

    /** The outcome of parsing: exactly one of config and error is non-null. */
    public record Result(ModelConfig config, String error) {
        public boolean ok() {
            return config != null;
        }
    }

    public static Result parse(String annotation) {
        if (annotation == null || annotation.isBlank()) {
            return new Result(null, "empty annotation");
        }
        JsonNode root;
        try {
            root = JSON.readTree(annotation);
        } catch (JsonProcessingException e) {
            return new Result(null, "invalid JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            return new Result(null, "not a JSON object");
        }
        JsonNode profilesNode = root.get("profiles");
        if (profilesNode == null || !profilesNode.isObject() || profilesNode.isEmpty()) {
            return new Result(null, "no profiles: the annotation needs at least one entry under \"profiles\"");
        }
        Map<String, Profile> profiles = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = profilesNode.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            if (!entry.getValue().isObject()) {
                return new Result(null, "profile \"" + entry.getKey() + "\" is not an object");
            }
            try {
                profiles.put(entry.getKey(), profile(entry.getKey(), entry.getValue()));
            } catch (IllegalArgumentException e) {
                return new Result(null, "profile \"" + entry.getKey() + "\": " + e.getMessage());
            }
        }
        return new Result(new ModelConfig(text(root, "lockedRoutingStrategy"), text(root, "defaultProfile"), profiles), null);
    }

    private static Profile profile(String name, JsonNode node) {
        JsonNode rc = node.get("routingConfig");
        RoutingConfig routingConfig = RoutingConfig.EMPTY;
        if (rc != null && !rc.isNull()) {
            if (!rc.isObject()) {
                throw new IllegalArgumentException("routingConfig is not an object");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> raw = JSON.convertValue(rc, LinkedHashMap.class);
            raw.values().removeIf(v -> v == null);
            routingConfig = new RoutingConfig(
                    integer(rc, "promptLenBucketMinLength", 0),
                    integer(rc, "promptLenBucketMaxLength", 0),
                    rc.path("combined").asBoolean(false),
                    text(rc, "prefillScorePolicy"),
                    text(rc, "decodeScorePolicy"),
                    raw);
        }
        return new Profile(name, text(node, "routingStrategy"), routingConfig);
    }

    private static int integer(JsonNode node, String field, int fallback) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return fallback;
        }
        if (!value.canConvertToInt()) {
            throw new IllegalArgumentException(field + " must be an integer, got " + value);
        }
        return value.asInt();
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual() || value.asText().isBlank()) {
            return null;
        }
        return value.asText().trim();
    }
}
