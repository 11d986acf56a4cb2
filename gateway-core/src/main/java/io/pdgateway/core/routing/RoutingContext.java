package io.pdgateway.core.routing;

import io.pdgateway.core.bucket.BucketPlan;
import io.pdgateway.core.model.ModelPods;
import java.util.random.RandomGenerator;

/**
 * Everything a cascade stage may read for one decision: the request, the model's pods, the load view, the prompt's
 * prefix-cache lookup, the injected randomness and the gateway-wide scoring settings. Stages never change any of it.
 *
 * @param stddevFactor AIBRIX_PREFIX_CACHE_STANDARD_DEVIATION_FACTOR
 * @param bucketPlan adaptive bucket serving's current plan, or {@link BucketPlan#EMPTY} when it is off
 */
public record RoutingContext(RouteRequest request, ModelPods model, LoadView load, PrefixLookup prefix,
        RandomGenerator random, double stddevFactor, BucketPlan bucketPlan) {

    public RoutingContext {
        if (bucketPlan == null) {
            bucketPlan = BucketPlan.EMPTY;
        }
        if (prefix == null) {
            prefix = PrefixLookup.NONE;
        }
    }

    public RoutingContext(RouteRequest request, ModelPods model, LoadView load, PrefixLookup prefix,
            RandomGenerator random, double stddevFactor) {
        this(request, model, load, prefix, random, stddevFactor, BucketPlan.EMPTY);
    }

    /** The same context over another model's pods. */
    public RoutingContext withModel(ModelPods pods) {
        return new RoutingContext(request, pods, load, prefix, random, stddevFactor, bucketPlan);
    }
}
