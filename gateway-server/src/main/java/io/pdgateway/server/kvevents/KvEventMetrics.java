package io.pdgateway.server.kvevents;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

/**
 * pd-gateway's own metrics of the engines' KV-event streams (Micrometer adds _total to counters). Per-pod series carry
 * the pod's id under {@code pod_name}, as the gateway's other per-pod series do, and are removed with the pod, so the
 * label set stays bounded by the pod set. Thread-safe.
 */
public final class KvEventMetrics {
    public static final String RECEIVED = "pd_gateway_kv_events_received";
    public static final String APPLIED = "pd_gateway_kv_events_applied";
    public static final String DROPPED = "pd_gateway_kv_events_dropped";
    public static final String REPLAY_REQUESTS = "pd_gateway_kv_events_replay_requests";
    public static final String VIEW_RESETS = "pd_gateway_kv_events_view_resets";
    public static final String STALE_PODS = "pd_gateway_kv_events_stale_pods";
    public static final String SUBSCRIBED_PODS = "pd_gateway_kv_events_subscribed_pods";
    public static final String POD_LIVE = "pd_gateway_kv_events_live";
    public static final String POD_TAG = "pod_name";

    /** Why an event (or, for {@link #MALFORMED_BATCH}, a whole message) was not applied. */
    public static final String MALFORMED_BATCH = "malformed_batch";
    public static final String MALFORMED_EVENT = "malformed_event";
    public static final String UNKNOWN_EVENT = "unknown_event";
    public static final String UNRESOLVED_PARENT = "unresolved_parent";
    public static final String BAD_SHAPE = "bad_shape";
    public static final String OTHER_MEDIUM = "other_medium";
    public static final String OTHER_GROUP = "other_group";
    /** Why a replay was asked for. */
    public static final String REPLAY_GAP = "gap";
    public static final String REPLAY_SYNC = "sync";
    public static final String REPLAY_PROBE = "probe";

    private final MeterRegistry registry;
    private final Map<String, List<Meter>> perPod = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> live = new ConcurrentHashMap<>();

    public KvEventMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** The gauges over all subscriptions: how many pods are subscribed, and how many of them are not live. */
    public void gauges(IntSupplier subscribed, IntSupplier stale) {
        Gauge.builder(SUBSCRIBED_PODS, subscribed::getAsInt)
                .description("Pods whose KV-cache event stream the gateway follows").register(registry);
        Gauge.builder(STALE_PODS, stale::getAsInt)
                .description("Followed pods whose KV-event stream is not live (silent past the staleness limit, or "
                        + "not yet in sync); their cache view falls back to the gateway-side model")
                .register(registry);
    }

    public void received(String pod, int events) {
        counter(RECEIVED, "KV-cache events received from the pod's engine, live or replayed", pod, null, null)
                .increment(events);
    }

    public void applied(String pod, int events) {
        counter(APPLIED, "KV-cache events applied to the pod's cache view", pod, null, null).increment(events);
    }

    public void dropped(String pod, String reason, int events) {
        counter(DROPPED, "KV-cache events (or whole messages, reason malformed_batch) not applied, by reason", pod,
                "reason", reason).increment(events);
    }

    public void replayRequested(String pod, String reason) {
        counter(REPLAY_REQUESTS, "Replays asked of the pod's replay socket: gap (missed batches), sync (catching up "
                + "after connecting), probe (proving a silent stream alive)", pod, "reason", reason).increment();
    }

    public void viewReset(String pod) {
        counter(VIEW_RESETS, "Times the pod's cache view was cleared because events were lost beyond replay or the "
                + "engine restarted", pod, null, null).increment();
    }

    /** Whether the pod's stream is live now (1: its view is event-fed) or not (0: the gateway's model stands in). */
    public void live(String pod, boolean isLive) {
        AtomicInteger value = live.get(pod);
        if (value == null) {
            AtomicInteger fresh = new AtomicInteger();
            Gauge gauge = Gauge.builder(POD_LIVE, fresh, AtomicInteger::get).tag(POD_TAG, pod)
                    .description("1 while the pod's KV-event stream is live and its cache view follows it; 0 while it "
                            + "is stale or not yet in sync and the gateway-side model stands in")
                    .register(registry);
            value = live.computeIfAbsent(pod, p -> fresh);
            remember(pod, gauge);
        }
        value.set(isLive ? 1 : 0);
    }

    /** Removes the pod's series (it left the pod set). */
    public void forget(String pod) {
        live.remove(pod);
        List<Meter> meters = perPod.remove(pod);
        if (meters != null) {
            synchronized (meters) {
                meters.forEach(registry::remove);
            }
        }
    }

    private Counter counter(String name, String help, String pod, String tag, String value) {
        Counter.Builder builder = Counter.builder(name).description(help).tag(POD_TAG, pod);
        if (tag != null) {
            builder.tag(tag, value);
        }
        Counter counter = builder.register(registry);
        remember(pod, counter);
        return counter;
    }

    private void remember(String pod, Meter meter) {
        List<Meter> meters = perPod.computeIfAbsent(pod, p -> new ArrayList<>());
        synchronized (meters) {
            if (!meters.contains(meter)) {
                meters.add(meter);
            }
        }
    }
}
