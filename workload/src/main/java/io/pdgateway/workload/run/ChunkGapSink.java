package io.pdgateway.workload.run;

/** Receives every gap between two consecutive tokens of a stream, as it happens (kept out of per-request results). */
@FunctionalInterface
public interface ChunkGapSink {
    ChunkGapSink NONE = millis -> { };

    void gap(double millis);
}
