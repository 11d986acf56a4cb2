package io.pdgateway.engine;

/** A request that makes a pod drop one in-flight request (SGLang: POST /abort_request {"rid": ...}). */
public record AbortCall(String path, byte[] body) {}
