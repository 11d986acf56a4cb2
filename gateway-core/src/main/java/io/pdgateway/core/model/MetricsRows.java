package io.pdgateway.core.model;

import java.util.function.IntConsumer;

/**
 * One model's scraped-metrics entries in an array indexed by the pods' slots in its snapshot ({@link PodSlots}), the
 * way {@code LedgerRows} holds its ledger entries: the very entries the store replaces values in, refilled only when
 * the snapshot or the store's set of entries changed. What a decision reads of every pod (the scrape's time, KV use
 * and generation throughput, mean prefill time) is copied into arrays by slot, each recopied at the next decision after a scrape
 * replaced its entry's value ({@link ChangedSlots}), so those reads do not visit entries scattered over the heap.
 *
 * <p>Not thread-safe: one per model, used under the model's lock.
 */
public final class MetricsRows {
    private PodSlots slots;
    private ScrapedMetrics source;
    private long version;
    private ScrapedMetrics.Entry[] entries;
    private ChangedSlots changed;
    // Each slot's last scrape as copied: whether it has one, when it finished, its KV use, generation throughput and
    // mean prefill time.
    private boolean[] scraped;
    private long[] scrapedAt;
    private double[] kvCacheUsage;
    private double[] generationThroughput;
    private double[] avgPrefillMillis;
    private final IntConsumer copy = this::copy;

    /** Brings the rows up to date for a decision over the pods of {@code modelSlots}; returns this. */
    public MetricsRows refresh(PodSlots modelSlots, ScrapedMetrics store) {
        // Read the version before the entries: an entry added meanwhile leaves a newer version for the next decision.
        long current = store.entriesVersion();
        if (modelSlots != slots || store != source || current != version) {
            slots = modelSlots;
            source = store;
            version = current;
            ModelPods model = modelSlots.model();
            int n = modelSlots.size();
            if (entries == null || entries.length != n) {
                entries = new ScrapedMetrics.Entry[n];
                changed = new ChangedSlots(n);
                scraped = new boolean[n];
                scrapedAt = new long[n];
                kvCacheUsage = new double[n];
                generationThroughput = new double[n];
                avgPrefillMillis = new double[n];
            }
            for (int s = 0; s < n; s++) {
                entries[s] = changed.watch(store.entry(model.pods().get(s).id()), s);
                copy(s);
            }
        } else {
            changed.drain(copy);
        }
        return this;
    }

    /** Copies the slot's entry: its latest scrape first, so the copied fields are that scrape's or a newer one's. */
    private void copy(int slot) {
        ScrapedMetrics.Entry entry = entries[slot];
        PodMetrics latest = entry == null ? null : entry.latest();
        scraped[slot] = latest != null;
        scrapedAt[slot] = latest == null ? Long.MIN_VALUE : entry.scrapedAtNanos();
        kvCacheUsage[slot] = latest == null ? Double.NaN : entry.kvCacheUsage();
        generationThroughput[slot] = latest == null ? Double.NaN : entry.generationThroughput();
        avgPrefillMillis[slot] = latest == null ? Double.NaN : latest.avgPrefillMillis();
    }

    /** The pod's scrape if fresh at {@code nowNanos} (the store's clock, read once per decision), else ABSENT. */
    public PodMetrics metrics(int slot, long nowNanos, long staleAfterNanos) {
        return ScrapedMetrics.fresh(entries[slot], nowNanos, staleAfterNanos);
    }

    /** Whether the pod's last scrape, as copied, is fresh at {@code nowNanos}. */
    public boolean fresh(int slot, long nowNanos, long staleAfterNanos) {
        return scraped[slot] && ScrapedMetrics.fresh(scrapedAt[slot], nowNanos, staleAfterNanos);
    }

    /** The copied {@link PodMetrics#kvCacheUsage()} of the pod's last scrape; NaN when it has none. */
    public double kvCacheUsage(int slot) {
        return kvCacheUsage[slot];
    }

    /** The copied {@link PodMetrics#generationThroughput()} of the pod's last scrape; NaN when it has none. */
    public double generationThroughput(int slot) {
        return generationThroughput[slot];
    }

    /** The copied {@link PodMetrics#avgPrefillMillis()} of the pod's last scrape; NaN when it has none. */
    public double avgPrefillMillis(int slot) {
        return avgPrefillMillis[slot];
    }
}
