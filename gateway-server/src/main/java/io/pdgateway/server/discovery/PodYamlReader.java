package io.pdgateway.server.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.pdgateway.core.config.ModelConfigParser;
import io.pdgateway.core.model.ModelConfig;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import io.pdgateway.core.spec.SpecLabels;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads Kubernetes Pod objects as {@code kubectl get pods -o yaml} prints them (a List/PodList, or one Pod per
 * document) into routable {@link Pod}s. A pod-level problem (bad port label, invalid config annotation) is a warning
 * and never fails the file; only unreadable YAML does, so the caller can keep its last good view.
 */
public final class PodYamlReader {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private PodYamlReader() {}

    /** The routable pods and one line per thing worth logging. */
    public record Result(List<Pod> pods, List<String> warnings, int skipped) {}

    public static Result read(byte[] yaml) throws IOException {
        List<JsonNode> objects = new ArrayList<>();
        try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(yaml)) {
            while (docs.hasNextValue()) {
                JsonNode doc = docs.nextValue();
                if (doc == null || doc.isNull() || doc.isMissingNode()) {
                    continue;
                }
                if (!doc.isObject()) {
                    throw new IOException("a document is not a YAML mapping");
                }
                if (doc.has("items")) {
                    doc.get("items").forEach(objects::add);
                } else {
                    objects.add(doc);
                }
            }
        }
        List<Pod> pods = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        int skipped = 0;
        for (JsonNode object : objects) {
            Pod pod = toPod(object, warnings);
            if (pod == null) {
                skipped++;
            } else {
                pods.add(pod);
            }
        }
        return new Result(pods, warnings, skipped);
    }

    /** The pod if it serves a model and is routable (podIP, not terminating, Ready not False), else null. */
    static Pod toPod(JsonNode object, List<String> warnings) {
        JsonNode metadata = object.path("metadata");
        String name = metadata.path("name").asText("");
        if (name.isEmpty()) {
            warnings.add("skipped an object without metadata.name");
            return null;
        }
        String namespace = metadata.path("namespace").asText("default");
        Map<String, String> labels = strings(metadata.path("labels"));
        Map<String, String> annotations = strings(metadata.path("annotations"));
        String id = namespace + "/" + name;
        String model = labels.getOrDefault(SpecLabels.MODEL_NAME, annotations.get(SpecLabels.MODEL_NAME));
        if (model == null || model.isBlank()) {
            return null;
        }
        String ip = object.path("status").path("podIP").asText("");
        if (ip.isEmpty() || !metadata.path("deletionTimestamp").isMissingNode() && !metadata.path("deletionTimestamp").isNull()
                || readyIsFalse(object)) {
            return null;
        }
        int port = port(labels, SpecLabels.PORT, SpecLabels.DEFAULT_PORT, id, warnings);
        int metricPort = port(labels, SpecLabels.METRIC_PORT, port, id, warnings);
        String engine = labels.getOrDefault(SpecLabels.ENGINE, SpecLabels.DEFAULT_ENGINE).trim().toLowerCase(Locale.ROOT);
        ModelConfig config = null;
        String annotation = annotations.get(SpecLabels.CONFIG);
        if (annotation != null) {
            ModelConfigParser.Result parsed = ModelConfigParser.parse(annotation);
            if (parsed.ok()) {
                config = parsed.config();
            } else {
                warnings.add(id + ": ignoring invalid " + SpecLabels.CONFIG + " annotation: " + parsed.error());
            }
        }
        int bootstrapPort = port(annotations, SpecLabels.SGLANG_BOOTSTRAP_PORT, SpecLabels.DEFAULT_SGLANG_BOOTSTRAP_PORT,
                id, warnings);
        String roleset = labels.get(SpecLabels.ROLESET_NAME);
        return new Pod(namespace, name, model.trim(), ip, port, metricPort, engine,
                PodRole.fromLabel(labels.get(SpecLabels.ROLE_NAME)), roleset == null || roleset.isBlank() ? null : roleset,
                labels.get(SpecLabels.KV_CONNECTOR_TYPE), bootstrapPort, config, labels);
    }

    private static boolean readyIsFalse(JsonNode object) {
        for (JsonNode condition : object.path("status").path("conditions")) {
            if ("Ready".equals(condition.path("type").asText()) && "False".equalsIgnoreCase(condition.path("status").asText())) {
                return true;
            }
        }
        return false;
    }

    private static int port(Map<String, String> values, String key, int fallback, String id, List<String> warnings) {
        String value = values.get(key);
        if (value == null) {
            return fallback;
        }
        try {
            int port = Integer.parseInt(value.trim());
            if (port > 0 && port < 65536) {
                return port;
            }
        } catch (NumberFormatException ignored) {
            // fall through to the warning
        }
        warnings.add(id + ": " + key + "=" + value + " is not a port; using " + fallback);
        return fallback;
    }

    private static Map<String, String> strings(JsonNode node) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isNull() && !e.getValue().isContainerNode()) {
                out.put(e.getKey(), e.getValue().asText());
            }
        }
        return out;
    }
}
