package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.MetricsRows.Column;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.ClusterLoad;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Scorer;
import java.util.List;

/**
 * Spec step 3, prefill policy conductor: an estimated TTFT in ms (reference §3 step G) = queue time behind the
 * pod's in-flight prefills + time to load the cached prefix + time to compute the rest (superlinear in its length).
 */
public final class ConductorPrefillScorer implements Scorer {
    public static final String NAME = "conductor";
    /** Reference §3: cached-prefix cost, 0.005 ms per token plus 1 ms. */
    static final double PREFIX_MS_PER_TOKEN = 0.005;
    static final double PREFIX_FIXED_MS = 1.0;
    /** Reference §3: uncached prefill cost, 0.001 × tokens^1.5 + 5 ms. */
    static final double PREFILL_COEFFICIENT = 0.001;
    static final double PREFILL_EXPONENT = 1.5;
    static final double PREFILL_FIXED_MS = 5.0;
    /** Reference §3: with no prefill-time histogram, a queued request is assumed to be a 512-token prefill. */
    static final int DEFAULT_QUEUED_TOKENS = 512;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public double[] score(RoutingContext context, List<Pod> candidates) {
        int[] pct = PrefixMatches.of(context, candidates, 0);
        int tokens = context.request().promptTokens();
        double[] counts = InFlightCounts.of(candidates, context.load());
        double[] scores = DecisionBuffers.scores(context.load(), Use.PREFILL_SCORES, candidates.size());
        // By slot where the decision knows them: the rows' copies, not each pod's scrape object.
        ClusterLoad bySlot = context.load() instanceof ClusterLoad decision ? decision : null;
        int[] slots = bySlot == null ? null : bySlot.slotsOfCandidates(candidates, Use.PREFILL_SLOTS);
        // The prompt's own cost depends only on the match percentage, which most pods share (0, or a system
        // prompt's): computed again only when it changes from the pod before (a power of the length each time).
        int lastPct = -1;
        double prefix = 0;
        double compute = 0;
        for (int i = 0; i < scores.length; i++) {
            if (pct[i] != lastPct) {
                lastPct = pct[i];
                double matched = (double) tokens * pct[i] / 100;
                double unmatched = tokens - matched;
                prefix = matched > 0 ? PREFIX_MS_PER_TOKEN * matched + PREFIX_FIXED_MS : 0;
                compute = unmatched > 0 ? prefillMillis(unmatched) : 0;
            }
            int inFlight = (int) counts[i];
            // An idle pod's queue is 0 whatever its average: its scrape is read only for a pod with work queued.
            double queue = 0;
            if (inFlight > 0) {
                double avgPrefill = slots != null ? bySlot.freshMetricAt(slots[i], Column.AVG_PREFILL_MILLIS)
                        : context.load().metrics(candidates.get(i)).avgPrefillMillis();
                queue = inFlight * queuedPrefillMillis(avgPrefill);
            }
            scores[i] = queue + prefix + compute;
        }
        return scores;
    }

    /** A queued prefill's time: the pod's scraped mean prefill time, or a 512-token prefill's estimate without one. */
    private static double queuedPrefillMillis(double avgPrefill) {
        return Double.isNaN(avgPrefill) || avgPrefill <= 0 ? prefillMillis(DEFAULT_QUEUED_TOKENS) : avgPrefill;
    }

    static double prefillMillis(double tokens) {
        return PREFILL_COEFFICIENT * Math.pow(tokens, PREFILL_EXPONENT) + PREFILL_FIXED_MS;
    }
}
