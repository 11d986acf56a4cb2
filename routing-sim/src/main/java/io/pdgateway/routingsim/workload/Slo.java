package io.pdgateway.routingsim.workload;

/**
 * The service-level objective goodput counts against: a request is good when it finished, its first token came within
 * {@code ttftMillis} and (with two or more output tokens) its mean time per output token was within
 * {@code tpotMillis}.
 */
public record Slo(double ttftMillis, double tpotMillis) {
    /**
     * Interactive-chat targets: a first token within 2 s, then at least 20 tokens a second (50 ms per token), faster
     * than people read. Override with --slo-ttft-ms / --slo-tpot-ms.
     */
    public static final Slo INTERACTIVE = new Slo(2000, 50);

    public Slo {
        if (!(ttftMillis > 0) || !(tpotMillis > 0)) {
            throw new IllegalArgumentException("SLO limits must be > 0");
        }
    }

    /** Whether a request with these latencies (NaN: none) met the SLO; a NaN TPOT (one token) is not judged. */
    public boolean met(double ttftMillisSeen, double tpotMillisSeen) {
        if (!(ttftMillisSeen <= ttftMillis)) {
            return false;
        }
        return Double.isNaN(tpotMillisSeen) || tpotMillisSeen <= tpotMillis;
    }
}
