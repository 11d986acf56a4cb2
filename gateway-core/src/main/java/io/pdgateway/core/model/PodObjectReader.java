package io.pdgateway.core.model;

import io.pdgateway.core.config.ModelConfigParser;
import io.pdgateway.core.spec.SpecLabels;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns a Kubernetes Pod object into a routable {@link Pod}: the one place that knows which labels and annotations
 * the gateway reads and what counts as routable (design.md §2: a podIP, no deletionTimestamp, no Ready condition that
 * is False). Both the pod file and the Kubernetes informer go through it, so they cannot disagree.
 */
public final class PodObjectReader {
    private PodObjectReader() {}

    /**
     * The pod if it serves a model and is routable, else null. A pod-level problem (bad port label, invalid config
     * annotation) adds a warning and falls back to the default, never dropping the pod.
     */
    public static Pod toPod(PodObject object, List<String> warnings) {
        Map<String, String> labels = object.labels();
        Map<String, String> annotations = object.annotations();
        String id = object.id();
        String model = labels.getOrDefault(SpecLabels.MODEL_NAME, annotations.get(SpecLabels.MODEL_NAME));
        if (model == null || model.isBlank()) {
            return null;
        }
        String ip = object.podIp();
        if (ip == null || ip.isEmpty() || object.terminating() || object.readyFalse()) {
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
                parsed.warnings().forEach(w -> warnings.add(id + ": " + SpecLabels.CONFIG + " annotation: " + w));
            } else {
                warnings.add(id + ": ignoring invalid " + SpecLabels.CONFIG + " annotation: " + parsed.error());
            }
        }
        int bootstrapPort = port(annotations, SpecLabels.SGLANG_BOOTSTRAP_PORT, SpecLabels.DEFAULT_SGLANG_BOOTSTRAP_PORT,
                id, warnings);
        String roleset = labels.get(SpecLabels.ROLESET_NAME);
        return new Pod(object.namespace(), object.name(), model.trim(), ip, port, metricPort, engine,
                PodRole.fromLabel(labels.get(SpecLabels.ROLE_NAME)), roleset == null || roleset.isBlank() ? null : roleset,
                labels.get(SpecLabels.KV_CONNECTOR_TYPE), bootstrapPort, config, withKvEventAnnotations(labels, annotations));
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

    /** Pod metadata keys that say where the pod's engine publishes KV-cache events (read by the gateway server). */
    public static final String KV_EVENTS_PREFIX = "model.aibrix.ai/kv-events-";

    /**
     * The labels plus the pod's KV-event annotations (an annotation wins over a label of the same key): a {@link Pod}
     * keeps labels only, and a full {@code tcp://host:port} endpoint cannot be a label value.
     */
    private static Map<String, String> withKvEventAnnotations(Map<String, String> labels,
            Map<String, String> annotations) {
        Map<String, String> merged = null;
        for (Map.Entry<String, String> e : annotations.entrySet()) {
            if (e.getKey().startsWith(KV_EVENTS_PREFIX) && e.getValue() != null) {
                if (merged == null) {
                    merged = new java.util.HashMap<>(labels);
                }
                merged.put(e.getKey(), e.getValue());
            }
        }
        return merged == null ? labels : merged;
    }
}
