package io.pdgateway.sim;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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
    /** Time in the running phase, from being scheduled to the last token (vLLM's inference time). */
    public final Histogram inferenceTime;
    /** The gap before each token after the first, per request (vLLM V1's time per output token). */
    public final Histogram timePerOutputToken;
    /** Prompt plus generated tokens the engine produced in one step: a first token counts its whole prompt. */
    public final Histogram iterationTokens;
    public final Histogram promptTokensPerRequest;
    public final Histogram generationTokensPerRequest;
    /** The most tokens any of a request's choices generated (the choices advance together here). */
    public final Histogram maxGenerationTokensPerRequest;
    public final Histogram maxTokensParam;
    public final Histogram choicesParam;

    public long promptTokens;
    public long generationTokens;
    public long prefixCacheQueries;
    public long prefixCacheHits;
    /** Decode-role requests waiting for their KV to arrive from a prefill pod. */
    public int kvFetchesInFlight;

    /** vLLM V1's buckets for the histograms only vLLM exports (the other engines' pages leave them out). */
    static final double[] TIME_PER_OUTPUT_TOKEN_BUCKETS = {
        0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0,
    };
    static final double[] ITERATION_TOKEN_BUCKETS = {1, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384};
    static final double[] CHOICES_BUCKETS = {1, 2, 5, 10, 20};

    private final Map<String, Long> finished = new LinkedHashMap<>();

    /**
     * @param maxModelLen the longest context the engine accepts: the top of the per-request token histograms
     */
    public EngineStats(double[] firstTokenBuckets, double[] requestPhaseBuckets, int maxModelLen) {
        timeToFirstToken = new Histogram(firstTokenBuckets);
        prefillTime = new Histogram(requestPhaseBuckets);
        decodeTime = new Histogram(requestPhaseBuckets);
        queueTime = new Histogram(requestPhaseBuckets);
        e2eLatency = new Histogram(requestPhaseBuckets);
        inferenceTime = new Histogram(requestPhaseBuckets);
        timePerOutputToken = new Histogram(TIME_PER_OUTPUT_TOKEN_BUCKETS);
        iterationTokens = new Histogram(ITERATION_TOKEN_BUCKETS);
        double[] tokens = oneTwoFive(maxModelLen);
        promptTokensPerRequest = new Histogram(tokens);
        generationTokensPerRequest = new Histogram(tokens);
        maxGenerationTokensPerRequest = new Histogram(tokens);
        maxTokensParam = new Histogram(tokens);
        choicesParam = new Histogram(CHOICES_BUCKETS);
        finished.put(FINISHED_STOP, 0L);
        finished.put(FINISHED_LENGTH, 0L);
        finished.put(FINISHED_ABORT, 0L);
    }

    /**
     * A request that generated all its tokens: what vLLM observes of it as it finishes.
     *
     * @param runningSeconds modelled seconds from being scheduled to the last token
     */
    void completed(Sequence s, double runningSeconds) {
        finished(FINISHED_LENGTH);
        inferenceTime.observe(runningSeconds);
        promptTokensPerRequest.observe(s.promptTokens());
        generationTokensPerRequest.observe(s.generated);
        maxGenerationTokensPerRequest.observe(s.generated);
        maxTokensParam.observe(s.maxTokens);
        choicesParam.observe(s.choices);
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

    /**
     * vLLM's 1-2-5 series up to {@code max} (build_1_2_5_buckets): 1, 2, 5, 10, 20, 50, ... while at most max.
     */
    static double[] oneTwoFive(int max) {
        List<Double> bounds = new ArrayList<>();
        for (long decade = 1; decade <= max; decade *= 10) {
            for (int mantissa : new int[] {1, 2, 5}) {
                if (mantissa * decade <= max) {
                    bounds.add((double) (mantissa * decade));
                }
            }
        }
        return bounds.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
