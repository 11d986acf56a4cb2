package io.pdgateway.server.scrape;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * What each computing pod's engine says its prefix cache served, as its scrapes found it, to set beside what the
 * gateway's cache view predicted for the prompts it routed there (prefill and standard pods: a decode pod's own lookup
 * of a prompt whose KV it receives is not one the view predicts, and would dilute the share): vLLM's two counters
 * (prompt tokens looked up, and those served from the cache), kept as totals the gateway re-exports, and SGLang's and
 * TensorRT-LLM's own hit-rate gauge. A total starts at the engine's value when the gateway first scrapes it; a counter
 * that goes down (the engine restarted) counts on from its new value, so a total never falls. Bounded by the scraped
 * pods ({@link #retainOnly}). Thread-safe.
 */
public final class EngineCacheHits {
    /** One pod's figures; written by its scrapes (one at a time), read by the metrics registry. */
    private static final class Served {
        private double lastHits = Double.NaN;
        private double lastQueried = Double.NaN;
        volatile double hitTokens;
        volatile double queriedTokens;
        volatile double hitRate = Double.NaN;
        volatile boolean counted;

        synchronized void counters(double hits, double queried) {
            hitTokens += increase(lastHits, hits);
            queriedTokens += increase(lastQueried, queried);
            lastHits = hits;
            lastQueried = queried;
            counted = true;
        }

        boolean rated() {
            return !Double.isNaN(hitRate);
        }

        private static double increase(double last, double now) {
            return Double.isNaN(last) || now < last ? now : now - last;
        }
    }

    private final Map<String, Served> pods = new ConcurrentHashMap<>();
    private volatile Consumer<String> firstFigures = id -> { };

    /** Told of a pod's id when a scrape first finds its figures (its series can appear then, not a tick later). */
    public void onFirstFigures(Consumer<String> listener) {
        firstFigures = listener;
    }

    /**
     * One scrape's figures (NaN where the engine exports none): the two counters count only when both are there.
     */
    public void observe(String podId, double hitTokens, double queriedTokens, double hitRate) {
        boolean counters = !Double.isNaN(hitTokens) && !Double.isNaN(queriedTokens);
        if (!counters && Double.isNaN(hitRate)) {
            return;
        }
        Served served = pods.get(podId);
        boolean first = served == null;
        if (first) {
            served = pods.computeIfAbsent(podId, id -> new Served());
        }
        if (counters) {
            served.counters(hitTokens, queriedTokens);
        }
        served.hitRate = hitRate;
        if (first) {
            firstFigures.accept(podId);
        }
    }

    /** Pods whose engine reports the two counters. */
    public Set<String> countingPods() {
        return podsWhere(served -> served.counted);
    }

    /** Whether the pod's engine reports the two counters. */
    public boolean counting(String podId) {
        Served served = pods.get(podId);
        return served != null && served.counted;
    }

    /** Pods whose engine reports a hit rate. */
    public Set<String> ratePods() {
        return podsWhere(Served::rated);
    }

    /** Whether the pod's engine reports a hit rate. */
    public boolean rating(String podId) {
        Served served = pods.get(podId);
        return served != null && served.rated();
    }

    private Set<String> podsWhere(Predicate<Served> test) {
        Set<String> ids = new HashSet<>();
        pods.forEach((id, served) -> {
            if (test.test(served)) {
                ids.add(id);
            }
        });
        return ids;
    }

    /** Prompt tokens the pod's engine served from its prefix cache: its own total, counting on over its restarts. */
    public double hitTokens(String podId) {
        Served served = pods.get(podId);
        return served == null ? 0 : served.hitTokens;
    }

    /** Prompt tokens the pod's engine looked up in its prefix cache: its own total, counting on over its restarts. */
    public double queriedTokens(String podId) {
        Served served = pods.get(podId);
        return served == null ? 0 : served.queriedTokens;
    }

    /** The pod's engine's own recent hit rate, 0..1, or NaN. */
    public double hitRate(String podId) {
        Served served = pods.get(podId);
        return served == null ? Double.NaN : served.hitRate;
    }

    /** Drops pods no longer in the cluster view. */
    public void retainOnly(Set<String> podIds) {
        pods.keySet().retainAll(podIds);
    }
}
