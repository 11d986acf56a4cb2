package io.pdgateway.core.routing.score;

import io.pdgateway.core.cache.PrefixMatch;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import io.pdgateway.core.routing.RoutingContext;
import java.util.Arrays;
import java.util.List;

/**
 * Prefix-match percentages of the request's prompt for a list of pods, aligned with the list: a working array of the
 * decision ({@code DecisionBuffers}), read by the scorer that asked and kept by none.
 */
final class PrefixMatches {
    private PrefixMatches() {}

    /** Matches below {@code minMatchPct} count as none (spec, AIBRIX_MIN_MATCH_PCT). */
    static int[] of(RoutingContext context, List<Pod> pods, double minMatchPct) {
        int[] pct = DecisionBuffers.ints(context.load(), Use.PREFIX_PERCENT, pods.size());
        PrefixMatch match = context.prefix().match();
        if (match.promptBlocks() == 0) {
            Arrays.fill(pct, 0); // a reused array holds the last decision's
            return pct;
        }
        for (int i = 0; i < pct.length; i++) {
            int p = match.percent(pods.get(i));
            pct[i] = p < minMatchPct ? 0 : p;
        }
        return pct;
    }
}
