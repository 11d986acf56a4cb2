package io.pdgateway.server.kvevents;

import java.util.List;
import java.util.Map;

/**
 * Reads where a pod publishes KV-cache events from its own metadata, in the spec's naming style. Only pod metadata
 * (written by whoever deploys the pods) decides where the gateway connects: nothing in a client request reaches here.
 * <ul>
 *   <li>{@value #ENDPOINT}: {@code tcp://HOST:PORT}; {@code tcp://*:PORT} (the engine's own bind string, copied over),
 *       {@code :PORT} or {@code PORT} mean the pod's IP. A label may carry the port alone (label values cannot hold
 *       {@code :} or {@code /}); the annotation wins over the label.
 *   <li>{@value #REPLAY_ENDPOINT}: the replay socket, in the same forms; without it gaps cannot be replayed and the
 *       pod's view is reset at a gap instead.
 *   <li>{@value #TOPIC}: the topic, default empty (vLLM's and SGLang's default).
 *   <li>{@value #ENABLED} (AIBrix's label): {@code "true"} on a pod without an endpoint means AIBrix's fixed ports, the
 *       engine publishing on {@value #AIBRIX_PORT} and replaying on {@value #AIBRIX_REPLAY_PORT} of the pod's IP, so
 *       pods labelled for AIBrix's KV-event sync are followed unchanged.
 * </ul>
 * Only {@code tcp://} is accepted: the gateway and the engines never share a host's IPC namespace. Pure and stateless.
 */
public final class KvEventsAnnotations {
    /** Annotation (or label, port only): the pod's KV-event PUB endpoint. */
    public static final String ENDPOINT = "model.aibrix.ai/kv-events-endpoint";
    /** Annotation (or label, port only): the pod's KV-event replay (ROUTER) endpoint. */
    public static final String REPLAY_ENDPOINT = "model.aibrix.ai/kv-events-replay-endpoint";
    /** Annotation (or label): the topic the pod publishes on. */
    public static final String TOPIC = "model.aibrix.ai/kv-events-topic";
    /** AIBrix's label: the pod publishes on AIBrix's fixed ports. */
    public static final String ENABLED = "model.aibrix.ai/kv-events-enabled";
    static final int AIBRIX_PORT = 5557;
    static final int AIBRIX_REPLAY_PORT = 5558;

    private static final String TCP = "tcp://";

    private KvEventsAnnotations() {}

    /**
     * The pod's event endpoint, or null when it publishes none or the value is unusable (then a warning is added and
     * the pod keeps the gateway-side cache model).
     */
    public static KvEventsEndpoint parse(String podId, String podIp, Map<String, String> labels,
            Map<String, String> annotations, List<String> warnings) {
        String raw = value(ENDPOINT, labels, annotations);
        boolean aibrixPorts = raw == null && "true".equalsIgnoreCase(value(ENABLED, labels, annotations));
        if (aibrixPorts) {
            raw = String.valueOf(AIBRIX_PORT);
        } else if (raw == null) {
            return null;
        }
        String endpoint = address(raw, podIp);
        if (endpoint == null) {
            warnings.add(podId + ": ignoring " + ENDPOINT + "=" + raw + ": expected tcp://HOST:PORT or a port");
            return null;
        }
        String rawReplay = value(REPLAY_ENDPOINT, labels, annotations);
        if (rawReplay == null && aibrixPorts) {
            rawReplay = String.valueOf(AIBRIX_REPLAY_PORT);
        }
        String replay = rawReplay == null ? null : address(rawReplay, podIp);
        if (rawReplay != null && replay == null) {
            warnings.add(podId + ": ignoring " + REPLAY_ENDPOINT + "=" + rawReplay
                    + ": expected tcp://HOST:PORT or a port; gaps will reset the pod's view");
        }
        String topic = value(TOPIC, labels, annotations);
        return new KvEventsEndpoint(endpoint, replay, topic == null ? "" : topic);
    }

    private static String value(String key, Map<String, String> labels, Map<String, String> annotations) {
        String v = annotations.get(key);
        if (v == null) {
            v = labels.get(key);
        }
        if (v == null) {
            return null;
        }
        v = v.trim();
        return v.isEmpty() && !key.equals(TOPIC) ? null : v;
    }

    /** tcp://host:port with the pod's IP for a missing or wildcard host, or null when the value is not one. */
    static String address(String raw, String podIp) {
        String rest = raw;
        if (rest.startsWith(TCP)) {
            rest = rest.substring(TCP.length());
        } else if (rest.contains("://")) {
            return null;
        }
        int colon = rest.lastIndexOf(':');
        String host = colon < 0 ? "" : rest.substring(0, colon);
        String portText = colon < 0 ? rest : rest.substring(colon + 1);
        int port;
        try {
            port = Integer.parseInt(portText);
        } catch (NumberFormatException e) {
            return null;
        }
        if (port < 1 || port > 65535) {
            return null;
        }
        if (host.isEmpty() || host.equals("*") || host.equals("0.0.0.0") || host.equals("[::]")) {
            if (podIp == null || podIp.isBlank()) {
                return null;
            }
            host = podIp.contains(":") && !podIp.startsWith("[") ? "[" + podIp + "]" : podIp;
        } else if (host.contains("/") || host.contains("*") || host.contains(" ")) {
            return null;
        }
        return TCP + host + ":" + port;
    }
}
