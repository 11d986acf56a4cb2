package io.pdgateway.server.bench;

import io.pdgateway.server.load.RequestResult;

/**
 * A latency objective per request: the first token within {@code ttftMillis} and the following ones at most
 * {@code tpotMillis} apart on average. Goodput is the share of all requests sent that succeeded within both.
 */
public record Slo(double ttftMillis, double tpotMillis) {
    public Slo {
        if (!(ttftMillis > 0) || !(tpotMillis > 0)) {
            throw new IllegalArgumentException("SLO bounds must be > 0 ms, got TTFT " + ttftMillis + ", TPOT " + tpotMillis);
        }
    }

    /** A request with a single output token has no TPOT and meets that half by definition. */
    public boolean met(RequestResult result) {
        return !result.failed() && result.ttftMillis() >= 0 && result.ttftMillis() <= ttftMillis
                && result.tpotMillis() <= tpotMillis;
    }
}
