package io.pdgateway.server.exchange;

/**
 * When each phase of one request happened, on the monotonic clock, for the per-phase histograms. Only what was
 * observed is reported: a concurrent schedule has no prefill-then-transfer sequence, so it gets no KV estimate.
 */
final class PhaseTimes {
    private static final long UNSET = Long.MIN_VALUE;

    private final long startNanos = System.nanoTime();
    private long prefillStart = UNSET;
    private long prefillEnd = UNSET;
    private long firstChunk = UNSET;
    private boolean sequential;

    void prefillStarted(boolean sequentialSchedule) {
        prefillStart = System.nanoTime();
        sequential = sequentialSchedule;
    }

    void prefillEnded() {
        prefillEnd = System.nanoTime();
    }

    void chunk() {
        if (firstChunk == UNSET) {
            firstChunk = System.nanoTime();
        }
    }

    /** Reports the phases of a request that completed successfully. */
    void report(PhaseSink sink, long endNanos) {
        if (firstChunk != UNSET) {
            sink.ttft(firstChunk - startNanos);
            sink.decode(endNanos - firstChunk);
        }
        if (prefillStart != UNSET && prefillEnd != UNSET) {
            sink.prefill(prefillEnd - prefillStart);
            // From the prefill's answer to the decode's first byte: the KV transfer plus the first decode step.
            if (sequential && firstChunk != UNSET && firstChunk >= prefillEnd) {
                sink.kvTransfer(firstChunk - prefillEnd);
            }
        }
    }

    /** Where the phase durations go, in nanoseconds. */
    interface PhaseSink {
        void ttft(long nanos);

        void prefill(long nanos);

        void kvTransfer(long nanos);

        void decode(long nanos);
    }
}
