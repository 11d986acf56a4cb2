package io.pdgateway.engine;

/**
 * Metadata an engine's plan needs from the prefill pod before either leg is sent (TensorRT-LLM generation_first: the
 * context worker's {@code /server_info}): where to read it and how to turn the answer into the opaque value the
 * adapter's plan receives in {@link LegRequest#prerequisite()}. The gateway fetches and caches it per pod; what it
 * means is the adapter's business alone.
 *
 * @param path the pod's HTTP path to GET
 */
public record PodPrerequisite(String path, Parser parser) {

    /** Reads the document at {@link #path}; the message of a failure says what is missing. */
    @FunctionalInterface
    public interface Parser {
        Object parse(byte[] body) throws EngineProtocolException;
    }
}
