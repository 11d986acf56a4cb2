package io.pdgateway.sim;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the engine has done, for the personality's metrics endpoint. Times are modelled engine seconds
 * (wall time divided by the time scale), so a pod run 100× faster still reports the latencies the modelled
 * GPU would have. Mutated and read on the pod's event loop only.
 */
public final class EngineStats {

    static final String FINISHED_STOP = "stop";
    static final String FINISHED_LENGTH = "length";
    public static final String FINISHED_ABORT = "abort";

    public final Histogram timeToFirstToken;
    public final Histogram prefillTime;
    public final Histogram decodeTime;
    public final Histogram queueTime;
    public final Histogram e2eLatency;

    public long promptTokens;
    public long generationTokens;
    public long prefixCacheQueries;
    public long prefixCacheHits;
    /** Decode-role requests waiting for their KV to arrive from a prefill pod. */
    public int kvFetchesInFlight;

    private final Map<String, Long> finished = new LinkedHashMap<>();

    public EngineStats(double[] firstTokenBuckets, double[] requestPhaseBuckets) {
        timeToFirstToken = new Histogram(firstTokenBuckets);
        prefillTime = new Histogram(requestPhaseBuckets);
        decodeTime = new Histogram(requestPhaseBuckets);
        queueTime = new Histogram(requestPhaseBuckets);
        e2eLatency = new Histogram(requestPhaseBuckets);
        finished.put(FINISHED_STOP, 0L);
        finished.put(FINISHED_LENGTH, 0L);
        finished.put(FINISHED_ABORT, 0L);
    }

    void finished(String reason) {
        finished.merge(reason, 1L, Long::sum);
    }

    /** Finished requests by reason (stop, length, abort), in that order. */
    public Map<String, Long> finishedByReason() {
        return new LinkedHashMap<>(finished);
    }

    public long successfulTotal() {
        return finished.get(FINISHED_STOP) + finished.get(FINISHED_LENGTH);
    }
}
