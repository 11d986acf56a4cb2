package io.pdgateway.bench.overhead;

import java.nio.file.Path;
import java.util.List;

/**
 * How the overhead benchmark runs; every field bounds its time.
 *
 * @param promptTokens  prompt sizes to measure (4 bytes a token: 256 is 1 KB, 51200 is 200 KB)
 * @param outputTokens  tokens per streamed answer
 * @param fixedRate     requests per second of the latency comparison
 * @param warmupRequests requests each target answers first, unreported, at up to warmupRate a second
 * @param warmupRate    the warm-up's arrival rate
 * @param jitSettleSeconds at most this much more warm-up, in batches, while a JVM proxy's compiler still works
 * @param rounds        the comparison alternates direct, gateway, nginx this many times
 * @param sliceSeconds  arrivals per target per round
 * @param searchStart   first rate of the rate search (the baseline p99 is the fixed-rate comparison's)
 * @param searchMax     the search never offers more than this
 * @param searchSteps   steps per search; 0 skips it
 * @param stepSeconds   arrivals per step
 * @param timeoutMillis a request taking longer is an error (fails its step)
 * @param nginx         nginx binary, or null to look it up
 * @param jvmReferences also measure {@link NettyReferenceProxy}'s two modes and {@link VertxReferenceProxy}, each in a
 *                      JVM of its own
 * @param gatewayVariants also measure a pd-gateway process with these JVM options and settings, each
 */
public record OverheadSettings(List<Integer> promptTokens, int outputTokens, double fixedRate, int warmupRequests,
        double warmupRate, double jitSettleSeconds, int rounds,
        double sliceSeconds, double searchStart, double searchMax, int searchSteps, double stepSeconds,
        long timeoutMillis, Path nginx, boolean jvmReferences, List<GatewayVariant> gatewayVariants) {
    public OverheadSettings {
        promptTokens = List.copyOf(promptTokens);
        gatewayVariants = List.copyOf(gatewayVariants);
        if (promptTokens.isEmpty() || promptTokens.stream().anyMatch(t -> t < 1) || outputTokens < 1 || rounds < 1
                || !(fixedRate > 0) || warmupRequests < 0 || !(warmupRate > 0) || jitSettleSeconds < 0
                || !(sliceSeconds > 0) || !(stepSeconds > 0) || timeoutMillis < 1) {
            throw new IllegalArgumentException("overhead settings must all be positive");
        }
    }

    /**
     * A p99 rests on the slowest 1 % of its requests: with fewer than 500 it is the worst two or three, and one slow
     * request decides it. A round of the comparison and a search step therefore last until this many requests are
     * due at their rate (never shorter than configured, never longer than {@link #MAX_STEP_SECONDS}). A 4-second step
     * at 10 a second judged a target by its one slowest request of 40.
     */
    public static final int MIN_TAIL_REQUESTS = 500;
    public static final double MAX_STEP_SECONDS = 30;

    /** How long a round or step at {@code rate} lasts: at least {@code configured}, and long enough for a p99. */
    public static double seconds(double configured, double rate) {
        return Math.max(configured, Math.min(MAX_STEP_SECONDS, MIN_TAIL_REQUESTS / rate));
    }
}
