package io.pdgateway.server.kvevents;

/**
 * Where one pod publishes its KV-cache events.
 *
 * @param endpoint the PUB socket to subscribe to, e.g. {@code tcp://10.0.0.7:5557}
 * @param replayEndpoint the ROUTER socket that replays missed batches, or null when the pod has none
 * @param topic the topic the pod publishes on (vLLM's and SGLang's default is the empty topic)
 */
public record KvEventsEndpoint(String endpoint, String replayEndpoint, String topic) {}
