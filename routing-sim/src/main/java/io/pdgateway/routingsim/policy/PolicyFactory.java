package io.pdgateway.routingsim.policy;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.routingsim.cluster.SimCluster;
import io.pdgateway.routingsim.workload.Workload;

/**
 * Builds a policy for one run, from the gateway settings it runs under, the run's cluster and the workload (which
 * only the oracle may look into).
 */
@FunctionalInterface
public interface PolicyFactory {
    RoutingPolicy create(GatewaySettings settings, SimCluster cluster, Workload workload);
}
