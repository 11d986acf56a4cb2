package io.pdgateway.core.routing.score;

import io.pdgateway.core.cache.PrefixMatch;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.RoutingContext;
import java.util.List;

/** Prefix-match percentages of the request's prompt for a list of pods, aligned with the list. */
final class PrefixMatches {
    private PrefixMatches() {}

    /** Matches below {@code minMatchPct} count as none (spec, AIBRIX_MIN_MATCH_PCT). */
    static int[] of(RoutingContext context, List<Pod> pods, double minMatchPct) {
        int[] pct = new int[pods.size()];
        PrefixMatch match = context.prefix().match();
        if (match.promptBlocks() == 0) {
            return pct;
        }
        for (int i = 0; i < pct.length; i++) {
            int p = match.percent(pods.get(i));
            pct[i] = p < minMatchPct ? 0 : p;
        }
        return pct;
    }
}
