package io.pdgateway.core.routing;

import io.pdgateway.core.bucket.BucketPlan;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.prefix.PrefixIndex;
import java.util.random.RandomGenerator;

/**
 * Everything a cascade stage may read for one decision: the request, the model's pods, the load view, the prefix
 * index, the injected randomness and the gateway-wide scoring settings. Stages never change any of it.
 *
 * @param stddevFactor AIBRIX_PREFIX_CACHE_STANDARD_DEVIATION_FACTOR
 * @param bucketPlan adaptive bucket serving's current plan, or {@link BucketPlan#EMPTY} when it is off
 */
public record RoutingContext(RouteRequest request, ModelPods model, LoadView load, PrefixIndex prefixIndex,
        RandomGenerator random, double stddevFactor, BucketPlan bucketPlan) {

    public RoutingContext {
        if (bucketPlan == null) {
            bucketPlan = BucketPlan.EMPTY;
        }
    }

    public RoutingContext(RouteRequest request, ModelPods model, LoadView load, PrefixIndex prefixIndex,
            RandomGenerator random, double stddevFactor) {
        this(request, model, load, prefixIndex, random, stddevFactor, BucketPlan.EMPTY);
    }

    /** The same context over another model's pods. */
    public RoutingContext withModel(ModelPods pods) {
        return new RoutingContext(request, pods, load, prefixIndex, random, stddevFactor, bucketPlan);
    }
}
