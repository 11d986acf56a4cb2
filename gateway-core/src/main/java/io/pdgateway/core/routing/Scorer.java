package io.pdgateway.core.routing;

import io.pdgateway.core.model.Pod;
import java.util.List;

/** A cascade stage that scores pods, lower is better: one finite score per candidate, in candidate order. */
public interface Scorer {
    String name();

    double[] score(RouteRequest request, List<Pod> candidates, LoadView load);
}
