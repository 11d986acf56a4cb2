package io.pdgateway.server.scrape;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.model.ScrapedMetrics;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * The latest engine metrics per pod, written by the scraper and read by routing. A pod whose last scrape is older
 * than the stale limit reads as having no metrics, so a pod that stopped answering does not steer routing with
 * old numbers. Each pod keeps one entry whose value a scrape replaces, so routing can keep the entries by pod slot
 * ({@link ScrapedMetrics}) and look a pod up only when the set of entries changed.
 */
public final class MetricsStore implements ScrapedMetrics {
    private final Map<String, Entry> latest = new ConcurrentHashMap<>();
    /** Bumped after every entry added or removed. */
    private final AtomicLong entriesVersion = new AtomicLong();
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

    @Override
    public long staleAfterNanos() {
        return staleAfterNanos;
    }

    public void put(String podId, PodMetrics metrics) {
        Entry entry = latest.get(podId);
        if (entry != null) {
            entry.latest(metrics);
            return;
        }
        Entry added = latest.computeIfAbsent(podId, id -> new Entry(metrics));
        added.latest(metrics); // another writer may have added it first
        entriesVersion.incrementAndGet();
    }

    public PodMetrics metrics(Pod pod) {
        return apply(pod);
    }

    @Override
    public long entriesVersion() {
        return entriesVersion.get();
    }

    @Override
    public Entry entry(String podId) {
        return latest.get(podId);
    }

    @Override
    public long nowNanos() {
        return nanoClock.getAsLong();
    }

    /** Drops pods no longer in the cluster view. */
    public void retainOnly(java.util.Set<String> podIds) {
        if (latest.keySet().retainAll(podIds)) {
            entriesVersion.incrementAndGet();
        }
    }
}
