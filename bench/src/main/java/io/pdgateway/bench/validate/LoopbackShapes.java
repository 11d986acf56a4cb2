package io.pdgateway.bench.validate;

import io.pdgateway.routingsim.cluster.ClusterShape;
import io.pdgateway.routingsim.cluster.PodGroup;
import io.pdgateway.routingsim.cluster.SimCluster;
import io.pdgateway.sim.cluster.LoopbackClusterShape;

/**
 * A routing-sim cluster shape as engine-sim pods on loopback: the same rolesets, standard pods, config annotations
 * (bucket bounds, routingConfig keys) and timing, so the simulator and the loopback run route over the same cluster.
 * A loopback cluster has one kind of roleset and one kind of standard pod, so a shape of at most one roleset group
 * and one standard group maps; any other is refused by name.
 */
final class LoopbackShapes {
    private LoopbackShapes() {}

    static LoopbackClusterShape of(ClusterShape shape, double timeScale) {
        PodGroup pd = null;
        PodGroup standard = null;
        for (PodGroup group : shape.groups()) {
            if (group.standard() ? standard != null : pd != null) {
                throw new IllegalArgumentException("validate runs clusters of at most one roleset group and one "
                        + "standard group; " + shape.source() + " has more (group " + group.name() + ")");
            }
            if (group.standard()) {
                standard = group;
            } else {
                pd = group;
            }
        }
        return new LoopbackClusterShape(pd == null ? 0 : pd.replicas(), pd == null ? 1 : pd.prefill(),
                pd == null ? 1 : pd.decode(), standard == null ? 0 : standard.replicas(),
                pd == null ? null : SimCluster.configAnnotation(pd),
                standard == null ? null : SimCluster.configAnnotation(standard), shape.timing(), timeScale);
    }
}
