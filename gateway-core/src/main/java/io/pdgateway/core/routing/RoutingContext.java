package io.pdgateway.core.routing;

import io.pdgateway.core.bucket.BucketPlan;
import io.pdgateway.core.prefix.PrefixIndex;
import java.util.random.RandomGenerator;

/**
 * Everything a cascade stage may read for one decision: the request, the load view, the prefix index, the injected
 * randomness and the gateway-wide scoring settings. Stages never change any of it.
 *
 * @param stddevFactor AIBRIX_PREFIX_CACHE_STANDARD_DEVIATION_FACTOR
 * @param bucketPlan adaptive bucket serving's current plan, or null when AIBRIX_BUCKET_SERVE is off
 */
public record RoutingContext(RouteRequest request, LoadView load, PrefixIndex prefixIndex, RandomGenerator random,
        double stddevFactor, BucketPlan bucketPlan) {

    public RoutingContext(RouteRequest request, LoadView load, PrefixIndex prefixIndex, RandomGenerator random,
            double stddevFactor) {
        this(request, load, prefixIndex, random, stddevFactor, null);
    }
}
