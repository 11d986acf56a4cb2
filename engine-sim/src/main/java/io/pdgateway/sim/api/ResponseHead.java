package io.pdgateway.sim.api;

/** The fields every response object and chunk of one request repeats. */
public record ResponseHead(String id, long created, String model) {
}
