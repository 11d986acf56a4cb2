package io.pdgateway.core.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pdgateway.core.json.JsonFaults;
import io.pdgateway.core.model.ModelConfig;
import io.pdgateway.core.model.Profile;
import io.pdgateway.core.model.RoutingConfig;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parses the model.aibrix.ai/config annotation. Invalid input never throws: it returns a failure whose message
 * the caller logs, and the pod is treated as having no config (spec: an invalid annotation is ignored). A key the
 * gateway does not read where it stands is no error (the upstream ignores it too) but is named in a warning: a
 * routing key one level too high (a profile's {@code prefillScorePolicy} outside its {@code routingConfig}) or a
 * setting pd-gateway does not enforce would otherwise be ignored without a word.
 */
public final class ModelConfigParser {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> TOP_KEYS = Set.of("lockedRoutingStrategy", "defaultProfile", "profiles");
    private static final Set<String> PROFILE_KEYS = Set.of("routingStrategy", "routingConfig");
    /** routingConfig keys of the spec, which a profile sometimes carries one level too high. */
    private static final Set<String> ROUTING_CONFIG_KEYS = Set.of("promptLenBucketMinLength",
            "promptLenBucketMaxLength", "combined", "prefillScorePolicy", "decodeScorePolicy");
    /** Keys the upstream reads that pd-gateway does not (named so, rather than as unknown). */
    private static final Set<String> NOT_ENFORCED = Set.of("requestsPerSecond");

    private ModelConfigParser() {}

    /**
     * The outcome of parsing: exactly one of config and error is non-null; warnings name keys the parse ignored (at
     * most a few per annotation, so a log line per pod stays short).
     */
    public record Result(ModelConfig config, String error, List<String> warnings) {
        public Result(ModelConfig config, String error) {
            this(config, error, List.of());
        }

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
            return new Result(null, JsonFaults.describe(e));
        }
        if (root == null || !root.isObject()) {
            return new Result(null, "not a JSON object");
        }
        JsonNode profilesNode = root.get("profiles");
        if (profilesNode == null || !profilesNode.isObject() || profilesNode.isEmpty()) {
            return new Result(null, "no profiles: the annotation needs at least one entry under \"profiles\"");
        }
        List<String> warnings = new ArrayList<>();
        ignoredKeys(root, TOP_KEYS, "", warnings);
        Map<String, Profile> profiles = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = profilesNode.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            if (!entry.getValue().isObject()) {
                return new Result(null, "profile \"" + entry.getKey() + "\" is not an object");
            }
            ignoredKeys(entry.getValue(), PROFILE_KEYS, "profile \"" + entry.getKey() + "\": ", warnings);
            try {
                profiles.put(entry.getKey(), profile(entry.getKey(), entry.getValue()));
            } catch (IllegalArgumentException e) {
                return new Result(null, "profile \"" + entry.getKey() + "\": " + e.getMessage());
            }
        }
        ModelConfig config = new ModelConfig(text(root, "lockedRoutingStrategy"), text(root, "defaultProfile"), profiles);
        return new Result(config, null, List.copyOf(warnings));
    }

    /** Names each key of the object outside {@code known}, up to a few per annotation. */
    private static void ignoredKeys(JsonNode object, Set<String> known, String where, List<String> warnings) {
        for (Iterator<String> it = object.fieldNames(); it.hasNext() && warnings.size() < 4; ) {
            String key = it.next();
            if (known.contains(key)) {
                continue;
            }
            String shown = key.length() > 64 ? key.substring(0, 64) + "..." : key;
            if (ROUTING_CONFIG_KEYS.contains(key) && !where.isEmpty()) {
                warnings.add(where + shown + " is ignored here: it belongs inside \"routingConfig\"");
            } else if (NOT_ENFORCED.contains(key)) {
                warnings.add(where + shown + " is ignored: pd-gateway does not enforce it");
            } else {
                warnings.add(where + "unknown key " + shown + " is ignored");
            }
        }
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
