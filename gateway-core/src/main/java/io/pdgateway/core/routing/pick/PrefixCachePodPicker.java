package io.pdgateway.core.routing.pick;

import io.pdgateway.core.cache.PrefixMatch;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.PodPicker;
import io.pdgateway.core.routing.RoutingContext;
import java.util.List;

/**
 * The non-PD prefix-cache strategy (reference §5.5): least-request when running counts are badly spread; otherwise
 * the pod with the longest prefix match among those not overloaded (running ≤ mean + k·sd; a random one among
 * equal matches), else least-request.
 */
public final class PrefixCachePodPicker implements PodPicker {
    public static final String NAME = "prefix-cache";
    /** Upstream AIBRIX_PREFIX_CACHE_POD_RUNNING_REQUEST_IMBALANCE_ABS_COUNT: spreads above 8 mean balance first. */
    static final int IMBALANCE_ABS_COUNT = 8;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Pod pick(RoutingContext context, List<Pod> pods) {
        int n = pods.size();
        double sum = 0;
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        for (Pod pod : pods) {
            int running = context.load().runningRequests(pod);
            sum += running;
            min = Math.min(min, running);
            max = Math.max(max, running);
        }
        if (max - min > IMBALANCE_ABS_COUNT || context.request().prefixHashes().length == 0) {
            return LeastRunningPodPicker.pick(pods, context.load(), context.random());
        }
        double mean = sum / n;
        double squares = 0;
        for (Pod pod : pods) {
            double d = context.load().runningRequests(pod) - mean;
            squares += d * d;
        }
        double limit = mean + context.stddevFactor() * (n > 1 ? Math.sqrt(squares / (n - 1)) : 0);
        PrefixMatch matches = context.prefix().match();
        // The longest match among pods not overloaded (unmatched or overloaded: NaN, skipped), a random one among equals.
        Pod best = LowestPicker.lowest(pods, pod -> {
            int pct = matches.percent(pod);
            return pct > 0 && context.load().runningRequests(pod) <= limit ? -pct : Double.NaN;
        }, context.random());
        return best != null ? best : LeastRunningPodPicker.pick(pods, context.load(), context.random());
    }
}
