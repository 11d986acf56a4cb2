package io.pdgateway.server.upstream;

import io.pdgateway.core.config.PodConnectionLimits;
import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.RouteDecision;
import io.vertx.core.Vertx;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Every pod's connection limit (PD_GATEWAY_UPSTREAM_MAX_CONNECTIONS_PER_POD and the wait beyond it), one
 * {@link PodGate} per pod the routing chose. Gates exist only for pods from discovery, never for anything a client
 * names, and a departed pod's gate goes once nothing holds or waits for it ({@link #forgetDeparted}). Thread-safe.
 *
 * <p>The gateway keeps these counts itself rather than leaning on the Vert.x pool's own limit and wait queue: a PD
 * request reserves its decode connection before its prefill runs (the pool could only make the decode leg wait after
 * its prefill had computed the KV), the counts are plain numbers for /metrics and for routing, and control calls to a
 * pod at its limit (SGLang's abort, TensorRT-LLM's /server_info) still get through, on the pool's headroom above it.
 */
public final class PodGates {
    private final Vertx vertx;
    private final PodConnectionLimits limits;
    private final Map<String, PodGate> gates = new ConcurrentHashMap<>();
    private final Consumer<String> gateAdded;

    /** @param gateAdded told the pod id of each new gate (its metric series appear then) */
    public PodGates(Vertx vertx, PodConnectionLimits limits, Consumer<String> gateAdded) {
        this.vertx = vertx;
        this.limits = limits;
        this.gateAdded = gateAdded;
    }

    public PodConnectionLimits limits() {
        return limits;
    }

    /** A reservation of the decision's connections (decode first, then prefill); {@link Reservation#start} asks. */
    public Reservation reservation(RouteDecision decision) {
        return new Reservation(this, decision);
    }

    PodGate gate(Pod pod) {
        PodGate gate = gates.get(pod.id());
        if (gate != null) {
            return gate;
        }
        boolean[] added = new boolean[1];
        gate = gates.computeIfAbsent(pod.id(), id -> {
            added[0] = true;
            return new PodGate(vertx, pod, limits);
        });
        if (added[0]) {
            gateAdded.accept(pod.id());
        }
        return gate;
    }

    /**
     * Drops the gates of pods no longer in {@code current} that nothing holds or waits for. A request routed to such a
     * pod just before it left gets a fresh gate; routing sends no new one there.
     */
    public void forgetDeparted(ClusterSnapshot current) {
        gates.entrySet().removeIf(e -> current.pod(e.getKey()) == null && e.getValue().idle());
    }

    /** The pods that have a gate (namespace/name). */
    public Set<String> podIds() {
        return Set.copyOf(gates.keySet());
    }

    /** The pod's connections in use (legs in flight, and slots reserved for a request's next leg). */
    public int inUse(String podId) {
        PodGate gate = gates.get(podId);
        return gate == null ? 0 : gate.inUse();
    }

    /** Requests waiting for one of the pod's connections. */
    public int waiting(String podId) {
        PodGate gate = gates.get(podId);
        return gate == null ? 0 : gate.waiting();
    }

    /** Requests refused for want of one of the pod's connections, since its gate appeared. */
    public long refused(String podId, SlotRefusal.Reason reason) {
        PodGate gate = gates.get(podId);
        return gate == null ? 0 : gate.refused(reason);
    }

    /** The Vert.x pool's size per pod: the limit plus headroom for control calls and connections still closing. */
    public static int poolSize(PodConnectionLimits limits) {
        int headroom = Math.max(64, limits.maxConnections() / 4);
        return (int) Math.min(Integer.MAX_VALUE, (long) limits.maxConnections() + headroom);
    }
}
