package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.RoutingContext;
import java.util.List;
import java.util.Map;

/** Prefix-match percentages of the request's prompt for a list of pods, aligned with the list. */
final class PrefixMatches {
    private PrefixMatches() {}

    /** Matches below {@code minMatchPct} count as none (spec, AIBRIX_MIN_MATCH_PCT). */
    static int[] of(RoutingContext context, List<Pod> pods, double minMatchPct) {
        int[] pct = new int[pods.size()];
        long[] hashes = context.request().prefixHashes();
        if (hashes.length == 0 || context.prefixIndex() == null) {
            return pct;
        }
        Map<String, Integer> matched = context.prefixIndex().match(hashes, pods);
        for (int i = 0; i < pct.length; i++) {
            int p = matched.getOrDefault(pods.get(i).id(), 0);
            pct[i] = p < minMatchPct ? 0 : p;
        }
        return pct;
    }
}
