package io.pdgateway.sim.kvevents;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Iterator;
import java.util.Set;

/**
 * The simulated pod's {@code --kv-events-config}, in vLLM's JSON shape (SGLang takes the same keys), e.g.
 * {@code {"enable_kv_cache_events":true,"publisher":"zmq","endpoint":"tcp://*:5557","replay_endpoint":"tcp://*:5558",
 * "topic":"kv-events"}}. Defaults are vLLM's; an unknown key or a wrong type is an error, as vLLM's config class makes it.
 *
 * @param enabled enable_kv_cache_events (default false)
 * @param publisher "zmq" or "null" (default "null"; vLLM's null publisher drops every event)
 * @param endpoint the PUB address (default tcp://*:5557); bound when it holds a wildcard, else connected, as vLLM does
 * @param replayEndpoint the ROUTER address for replays, or null (default)
 * @param bufferSteps batches kept for replay (default 10,000)
 * @param hwm the PUB socket's high-water mark (default 100,000)
 * @param maxQueueSize batches queued for the publisher thread before callers block (default 100,000)
 * @param topic the first frame of every message (default empty)
 */
public record KvEventsConfig(boolean enabled, String publisher, String endpoint, String replayEndpoint,
        int bufferSteps, int hwm, int maxQueueSize, String topic) {

    public static final String PUBLISHER_ZMQ = "zmq";
    public static final String PUBLISHER_NULL = "null";
    /** vLLM's KVEventsConfig defaults. */
    public static final String DEFAULT_ENDPOINT = "tcp://*:5557";
    public static final int DEFAULT_BUFFER_STEPS = 10_000;
    public static final int DEFAULT_HWM = 100_000;
    public static final int DEFAULT_MAX_QUEUE_SIZE = 100_000;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> KEYS = Set.of("enable_kv_cache_events", "publisher", "endpoint",
            "replay_endpoint", "buffer_steps", "hwm", "max_queue_size", "topic");

    /** Events off, as when the flag is absent. */
    public static final KvEventsConfig DISABLED = new KvEventsConfig(false, PUBLISHER_NULL, DEFAULT_ENDPOINT, null,
            DEFAULT_BUFFER_STEPS, DEFAULT_HWM, DEFAULT_MAX_QUEUE_SIZE, "");

    /** True when events go out on ZeroMQ. */
    public boolean publishes() {
        return enabled && PUBLISHER_ZMQ.equals(publisher);
    }

    /** Parses the flag's JSON value; throws IllegalArgumentException with the offending key. */
    public static KvEventsConfig parse(String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("--kv-events-config is not JSON: " + e.getOriginalMessage());
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("--kv-events-config must be a JSON object");
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("--kv-events-config: unknown key '" + key + "'; known: " + KEYS);
            }
        }
        boolean enabled = bool(root, "enable_kv_cache_events", false);
        String publisher = text(root, "publisher", PUBLISHER_NULL, false);
        if (!publisher.equals(PUBLISHER_ZMQ) && !publisher.equals(PUBLISHER_NULL)) {
            throw new IllegalArgumentException("--kv-events-config: unknown publisher '" + publisher
                    + "'; known: zmq, null");
        }
        return new KvEventsConfig(enabled, publisher, text(root, "endpoint", DEFAULT_ENDPOINT, false),
                text(root, "replay_endpoint", null, true), positive(root, "buffer_steps", DEFAULT_BUFFER_STEPS),
                positive(root, "hwm", DEFAULT_HWM), positive(root, "max_queue_size", DEFAULT_MAX_QUEUE_SIZE),
                text(root, "topic", "", false));
    }

    private static boolean bool(JsonNode root, String key, boolean fallback) {
        JsonNode v = root.get(key);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (!v.isBoolean()) {
            throw new IllegalArgumentException("--kv-events-config: " + key + " must be true or false");
        }
        return v.booleanValue();
    }

    private static String text(JsonNode root, String key, String fallback, boolean nullable) {
        JsonNode v = root.get(key);
        if (v == null || (v.isNull() && nullable)) {
            return fallback;
        }
        if (!v.isTextual()) {
            throw new IllegalArgumentException("--kv-events-config: " + key + " must be a string");
        }
        return v.textValue();
    }

    private static int positive(JsonNode root, String key, int fallback) {
        JsonNode v = root.get(key);
        if (v == null) {
            return fallback;
        }
        if (!v.canConvertToInt() || !v.isIntegralNumber() || v.intValue() <= 0) {
            throw new IllegalArgumentException("--kv-events-config: " + key + " must be a positive integer");
        }
        return v.intValue();
    }
}
