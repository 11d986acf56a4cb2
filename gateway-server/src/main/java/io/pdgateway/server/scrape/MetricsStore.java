package io.pdgateway.server.scrape;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The latest engine metrics per pod, written by the scraper and read by routing. A pod whose last scrape is older
 * than the stale limit reads as having no metrics, so a pod that stopped answering does not steer routing with
 * old numbers.
 */
public final class MetricsStore {
    private final Map<String, PodMetrics> latest = new ConcurrentHashMap<>();
    private volatile long staleAfterNanos;
    private final LongSupplier nanoClock;

    public MetricsStore(long staleAfterNanos, LongSupplier nanoClock) {
        this.staleAfterNanos = staleAfterNanos;
        this.nanoClock = nanoClock;
    }

    /** A new stale limit: the scraper widens it when its rounds over many pods take longer than the default allows. */
    public void staleAfter(long nanos) {
        this.staleAfterNanos = nanos;
    }

    public long staleAfterNanos() {
        return staleAfterNanos;
    }

    public void put(String podId, PodMetrics metrics) {
        latest.put(podId, metrics);
    }

    public PodMetrics metrics(Pod pod) {
        PodMetrics m = latest.get(pod.id());
        if (m == null || nanoClock.getAsLong() - m.scrapedAtNanos() > staleAfterNanos) {
            return PodMetrics.ABSENT;
        }
        return m;
    }

    /** Drops pods no longer in the cluster view. */
    public void retainOnly(java.util.Set<String> podIds) {
        latest.keySet().retainAll(podIds);
    }
}
