package io.pdgateway.routingsim.policy;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.routingsim.cluster.SimCluster;
import io.pdgateway.routingsim.workload.Workload;
import io.pdgateway.workload.Slo;

/**
 * What a policy may be built from for one run: the gateway settings it runs under, the run's cluster, and (for the
 * oracle only, which alone may look) the workload and the SLO the run is judged by.
 */
public record PolicySetup(GatewaySettings settings, SimCluster cluster, Workload workload, Slo slo) {}
