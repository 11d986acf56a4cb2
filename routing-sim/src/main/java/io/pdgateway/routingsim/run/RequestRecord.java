package io.pdgateway.routingsim.run;

import io.pdgateway.core.routing.DecisionKind;
import io.pdgateway.core.routing.Verdict;

/**
 * What happened to one request in one run, as its client and the gateway would log it. Times are virtual nanoseconds
 * from the start of the run; -1 when the moment never came.
 *
 * @param step the cascade steps that decided (RouteDecision.step)
 * @param prefillPod the prefill pod's name on the PD path, else null
 * @param targetPod the decode or standard pod's name, null when nothing was routed
 * @param cachedTokens prompt tokens the serving engine found in its prefix cache
 * @param error why the request failed, or null
 */
public record RequestRecord(int index, long arrivalNanos, int promptTokens, int outputTokens, DecisionKind kind,
        Verdict verdict, String step, String prefillPod, String targetPod, long firstTokenNanos, long finishNanos,
        int cachedTokens, String error) {

    public boolean failed() {
        return error != null;
    }

    /** Time to first token in milliseconds, NaN when none came. */
    public double ttftMillis() {
        return firstTokenNanos < 0 ? Double.NaN : (firstTokenNanos - arrivalNanos) / 1e6;
    }

    /** Mean time per output token after the first, in milliseconds; NaN with fewer than two tokens. */
    public double tpotMillis() {
        return finishNanos < 0 || outputTokens < 2 ? Double.NaN
                : (finishNanos - firstTokenNanos) / 1e6 / (outputTokens - 1);
    }

    /** Served by a standard pod although the strategy was pd: a bucket fallback or a combined overflow. */
    public boolean fallback() {
        return verdict == Verdict.STANDARD_FALLBACK;
    }
}
