package io.pdgateway.server.demo;

/** One request of a trace: when it arrives (ms from the trace's start) and its token lengths. */
public record TraceRequest(long arrivalMillis, int promptTokens, int outputTokens) {}
