package io.pdgateway.server.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.pdgateway.server.upstream.PodGates;
import io.pdgateway.server.upstream.SlotRefusal;
import java.util.ArrayList;
import java.util.List;

/**
 * pd-gateway's own series of each pod's connection limit (PD_GATEWAY_UPSTREAM_MAX_CONNECTIONS_PER_POD), labelled
 * {namespace, pod_name} from discovery: connections in use, requests waiting for one, and requests refused by reason
 * (queue_full, wait_timeout; both at zero from the pod's first request on, so a dashboard sees them before the first
 * refusal). A pod's series appear with its first routed request and go when it has left discovery and is idle.
 */
public final class PodConnectionGauges {
    /** Legs in flight on the pod, each on its own connection, and slots reserved for a request's next leg. */
    public static final String IN_USE = "pd_gateway_upstream_connections_in_use";
    /** Requests waiting for one of the pod's connections. */
    public static final String WAITING = "pd_gateway_upstream_requests_waiting";
    /** Requests refused 503 for want of one of the pod's connections (Micrometer adds _total). */
    public static final String REJECTED = "pd_gateway_upstream_rejected_requests";

    private final PodSeries series;
    private final PodGates gates;

    public PodConnectionGauges(MeterRegistry registry, PodGates gates) {
        this.gates = gates;
        this.series = new PodSeries(registry, id -> {
            List<Meter> meters = new ArrayList<>();
            meters.add(PodSeries.gauge(registry, IN_USE, "Connections to the pod in use: legs in flight, and slots "
                    + "reserved for a request's next leg", id, () -> gates.inUse(id)));
            meters.add(PodSeries.gauge(registry, WAITING, "Requests waiting for one of the pod's connections", id,
                    () -> gates.waiting(id)));
            int slash = id.indexOf('/');
            for (SlotRefusal.Reason reason : SlotRefusal.Reason.values()) {
                meters.add(FunctionCounter.builder(REJECTED, gates, g -> g.refused(id, reason))
                        .description("Requests refused 503 for want of one of the pod's connections, by reason: "
                                + "queue_full (every connection in use and the waiting line full), wait_timeout "
                                + "(none came free in time)")
                        .tag("namespace", id.substring(0, slash)).tag("pod_name", id.substring(slash + 1))
                        .tag("reason", reason.label()).register(registry));
            }
            return meters;
        });
    }

    /** The pod's series, now (its gate just appeared). */
    public void add(String podId) {
        series.add(podId);
    }

    /** Drops the series of pods whose gate went; call after {@link PodGates#forgetDeparted}. */
    public void sync() {
        series.sync(gates.podIds());
    }
}
