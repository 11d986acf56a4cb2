package io.pdgateway.server.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodObject;
import io.pdgateway.core.model.PodObjectReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
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
        int documents = 0;
        try (MappingIterator<JsonNode> docs = YAML.readerFor(JsonNode.class).readValues(yaml)) {
            while (docs.hasNextValue()) {
                JsonNode doc = docs.nextValue();
                if (doc == null || doc.isNull() || doc.isMissingNode()) {
                    continue;
                }
                documents++;
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
        if (documents == 0) {
            // kubectl never prints nothing (no pods is an empty List): an empty file is one caught mid-write.
            throw new IOException("the file holds no YAML document");
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

    /** Reads the fields discovery needs and hands them to the shared {@link PodObjectReader}. */
    static Pod toPod(JsonNode object, List<String> warnings) {
        JsonNode metadata = object.path("metadata");
        String name = metadata.path("name").asText("");
        if (name.isEmpty()) {
            warnings.add("skipped an object without metadata.name");
            return null;
        }
        JsonNode deletion = metadata.path("deletionTimestamp");
        PodObject pod = new PodObject(metadata.path("namespace").asText("default"), name, strings(metadata.path("labels")),
                strings(metadata.path("annotations")), object.path("status").path("podIP").asText(""),
                !deletion.isMissingNode() && !deletion.isNull(), readyIsFalse(object));
        return PodObjectReader.toPod(pod, warnings);
    }

    private static boolean readyIsFalse(JsonNode object) {
        for (JsonNode condition : object.path("status").path("conditions")) {
            if ("Ready".equals(condition.path("type").asText()) && "False".equalsIgnoreCase(condition.path("status").asText())) {
                return true;
            }
        }
        return false;
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
