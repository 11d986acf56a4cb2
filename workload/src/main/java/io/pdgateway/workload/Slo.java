package io.pdgateway.workload;

/**
 * A latency objective per request: the first token within {@code ttftMillis} and the following ones at most
 * {@code tpotMillis} apart on average. Goodput counts the requests that succeeded within both.
 */
public record Slo(double ttftMillis, double tpotMillis) {
    /**
     * Interactive-chat targets: a first token within 2 s, then at least 20 tokens a second (50 ms per token), faster
     * than people read. routing-sim's default; bench's options default to their own (looser TPOT) objective.
     */
    public static final Slo INTERACTIVE = new Slo(2000, 50);

    public Slo {
        if (!(ttftMillis > 0) || !(tpotMillis > 0)) {
            throw new IllegalArgumentException("SLO bounds must be > 0 ms, got TTFT " + ttftMillis + ", TPOT " + tpotMillis);
        }
    }

    /**
     * Whether a finished request with these latencies met the objective. A TTFT that was not measured (negative or
     * NaN) never meets it; a TPOT that was not measured (one output token: negative or NaN) is not judged.
     */
    public boolean met(double ttftMillisSeen, double tpotMillisSeen) {
        return ttftMillisSeen >= 0 && ttftMillisSeen <= ttftMillis && !(tpotMillisSeen > tpotMillis);
    }
}
