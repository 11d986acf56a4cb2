package io.pdgateway.core.routing;

import io.pdgateway.core.model.Pod;
import java.util.List;

/** The one stage of a non-PD strategy: picks the pod that serves the whole request among pods that can. */
public interface PodPicker {
    String name();

    /** One of {@code pods}; null when {@code pods} is empty (the router never asks then). */
    Pod pick(RoutingContext context, List<Pod> pods);
}
