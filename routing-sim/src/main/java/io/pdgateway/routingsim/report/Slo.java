package io.pdgateway.routingsim.report;

import io.pdgateway.routingsim.run.RequestRecord;

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

    public boolean met(RequestRecord r) {
        if (r.failed() || !(r.ttftMillis() <= ttftMillis)) {
            return false;
        }
        double tpot = r.tpotMillis();
        return Double.isNaN(tpot) || tpot <= tpotMillis;
    }
}
