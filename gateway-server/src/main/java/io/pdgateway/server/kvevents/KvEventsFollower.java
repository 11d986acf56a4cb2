package io.pdgateway.server.kvevents;

import io.pdgateway.core.cache.CacheViews;
import io.pdgateway.core.model.Pod;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the KV-event subscriptions in step with discovery: every pod of the cache views' pod set whose metadata names an
 * event endpoint ({@link KvEventsAnnotations}) is followed, and its events feed its view in {@link CacheViews}. Pods are
 * taken from the views themselves, so a subscription never starts before the views accept the pod's events. A bad
 * annotation is logged once per pod and value; a model whose pods publish while its prompts are not tokenized as
 * its engines tokenize them (no block could ever match) once per model. Call {@link #sync} after each upkeep tick,
 * from any one thread.
 */
public final class KvEventsFollower implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KvEventsFollower.class);

    private final CacheViews caches;
    private final KvEventsSettings settings;
    private final KvEventMetrics metrics;
    private final LongSupplier nanoClock;
    private final Function<String, String> unlikeEngines;
    /** Started with the first pod that publishes: a gateway without such pods runs no ZeroMQ thread at all. */
    private KvEventSubscriptions subscriptions;
    private boolean closed;
    /** Warnings already logged; bounded by the pod set (cleared of pods that left at every sync). */
    private final Set<String> warned = new HashSet<>();
    /** The pods that published at the last sync, for whoever needs them beside the subscriptions. */
    private volatile List<Pod> publishing = List.of();
    /** Models already warned of as tokenized unlike their engines; bounded by the models present. */
    private final Set<String> warnedModels = new HashSet<>();

    /**
     * @param unlikeEngines null when a model's prompts hash over the tokens its engines compute, else how they do not
     *     (a warning's end, once per model)
     */
    public KvEventsFollower(KvEventsSettings settings, CacheViews caches, KvEventMetrics metrics,
            LongSupplier nanoClock, Function<String, String> unlikeEngines) {
        this.caches = caches;
        this.settings = settings;
        this.metrics = metrics;
        this.nanoClock = nanoClock;
        this.unlikeEngines = unlikeEngines;
    }

    /** Subscribes to the pods that publish now, stops those that left or stopped publishing. Returns at once. */
    public synchronized void sync() {
        List<KvEventsTarget> targets = new ArrayList<>();
        List<Pod> publishingNow = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        Set<String> present = new HashSet<>();
        Set<String> models = new HashSet<>();
        for (Pod pod : caches.pods()) {
            present.add(pod.id());
            models.add(pod.model());
            KvEventsEndpoint endpoint = KvEventsAnnotations.parse(pod.id(), pod.ip(), pod.labels(), Map.of(), warnings);
            if (endpoint != null) {
                targets.add(new KvEventsTarget(pod.id(), pod.model(), endpoint));
                publishingNow.add(pod);
                String unlike = unlikeEngines.apply(pod.model());
                if (unlike != null && warnedModels.add(pod.model())) {
                    LOG.warn("{} publishes KV-cache events for model {}, {}", pod.id(), pod.model(), unlike);
                }
            }
        }
        publishing = List.copyOf(publishingNow);
        warnedModels.retainAll(models);
        warned.removeIf(w -> !present.contains(w.substring(0, Math.max(0, w.indexOf(':'))))); // "pod: ..." 
        for (String warning : warnings) {
            if (warned.add(warning)) {
                LOG.warn("{}", warning);
            }
        }
        if (closed || (subscriptions == null && targets.isEmpty())) {
            return;
        }
        if (subscriptions == null) {
            subscriptions = new KvEventSubscriptions(settings, caches, metrics, nanoClock);
        }
        subscriptions.update(targets);
    }

    /** The pods whose metadata named a KV-event endpoint at the last {@link #sync}. */
    public List<Pod> publishingPods() {
        return publishing;
    }

    public synchronized int subscribedPods() {
        return subscriptions == null ? 0 : subscriptions.subscribedPods();
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (subscriptions != null) {
            subscriptions.close();
        }
    }
}
