package io.pdgateway.core.routing;

import io.pdgateway.core.model.Pod;
import java.util.List;

/**
 * A cascade stage that scores pods, lower is better: one score per candidate, in candidate order, on one scale.
 * NaN means "cannot score this pod" (it is skipped); +Infinity is a valid, worst score.
 */
public interface Scorer {
    String name();

    double[] score(RoutingContext context, List<Pod> candidates);
}
