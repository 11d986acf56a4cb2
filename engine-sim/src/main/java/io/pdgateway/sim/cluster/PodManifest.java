package io.pdgateway.sim.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a pod file in the shape {@code kubectl get pods -o yaml} prints (a {@code kind: List} of Pods), for the
 * demo's simulated cluster and for tests. The file is replaced atomically so a reader never sees half of it.
 */
public final class PodManifest {
    private static final ObjectMapper YAML = new ObjectMapper(
            new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                    .enable(YAMLGenerator.Feature.LITERAL_BLOCK_STYLE));

    /** One pod to write: its labels, annotations and address. */
    public record Entry(String namespace, String name, Map<String, String> labels, Map<String, String> annotations,
            String podIp, boolean ready) {
        public Entry {
            labels = new LinkedHashMap<>(labels);
            annotations = new LinkedHashMap<>(annotations);
        }
    }

    private PodManifest() {}

    public static String yaml(List<Entry> pods) {
        ObjectNode list = YAML.createObjectNode();
        list.put("apiVersion", "v1");
        list.put("kind", "List");
        ArrayNode items = list.putArray("items");
        for (Entry pod : pods) {
            ObjectNode item = items.addObject();
            item.put("apiVersion", "v1");
            item.put("kind", "Pod");
            ObjectNode metadata = item.putObject("metadata");
            metadata.put("name", pod.name());
            metadata.put("namespace", pod.namespace());
            ObjectNode labels = metadata.putObject("labels");
            pod.labels().forEach(labels::put);
            if (!pod.annotations().isEmpty()) {
                ObjectNode annotations = metadata.putObject("annotations");
                pod.annotations().forEach(annotations::put);
            }
            ObjectNode status = item.putObject("status");
            status.put("phase", "Running");
            status.put("podIP", pod.podIp());
            ObjectNode ready = status.putArray("conditions").addObject();
            ready.put("type", "Ready");
            ready.put("status", pod.ready() ? "True" : "False");
        }
        try {
            return YAML.writeValueAsString(list);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void write(Path file, List<Entry> pods) {
        try {
            Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), ".pods", ".tmp");
            Files.writeString(tmp, yaml(pods));
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
