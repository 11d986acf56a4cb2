package io.pdgateway.core.routing.fastpath;

import io.pdgateway.core.model.Roleset;
import io.pdgateway.core.routing.FastPath;
import io.pdgateway.core.routing.PdCandidates;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.Step;
import java.util.List;
import java.util.Optional;

/**
 * Spec step 2b, adaptive bucket serving: when the plan bands this prompt length to a roleset that still has both a
 * prefill and a decode candidate after the load-imbalance fast paths, only that roleset remains; otherwise (no band,
 * or the banded roleset lost a side) the candidates stand and the request routes as without the plan.
 */
public final class BucketBandFastPath implements FastPath {
    public static final String NAME = "bucket-band";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<Result> apply(RoutingContext context, PdCandidates candidates) {
        String banded = context.bucketPlan().rolesetFor(context.request().model(), context.request().promptTokens());
        if (banded == null) {
            return Optional.empty();
        }
        List<Roleset> rolesets = candidates.rolesets();
        if (rolesets.size() == 1 && rolesets.get(0).name().equals(banded)) {
            return Optional.empty(); // already narrowed to it: nothing to say
        }
        for (Roleset roleset : rolesets) {
            if (roleset.name().equals(banded) && roleset.isComplete()) {
                return Optional.of(new Narrowing(new PdCandidates(List.of(roleset), candidates.standard()),
                        Step.BUCKET_SERVE, "prompt length " + context.request().promptTokens() + " is banded to "
                                + banded));
            }
        }
        return Optional.empty();
    }
}
