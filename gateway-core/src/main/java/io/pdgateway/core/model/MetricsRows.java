package io.pdgateway.core.model;

import java.util.function.IntConsumer;
import java.util.function.ToDoubleFunction;

/**
 * One model's scraped-metrics entries in an array indexed by the pods' slots in its snapshot ({@link PodSlots}), the
 * way {@code LedgerRows} holds its ledger entries: the very entries the store replaces values in, refilled only when
 * the snapshot or the store's set of entries changed. What a decision reads of every pod (a scrape's time and the
 * {@link Column}s) is copied into arrays by slot, each recopied at the next decision after a scrape replaced its
 * entry's value ({@link ChangedSlots}), so those reads do not visit entries and scrapes scattered over the heap.
 *
 * <p>Not thread-safe: one per model, used under the model's lock.
 */
public final class MetricsRows {
    /** The scraped values a decision reads of every pod of a side. */
    public enum Column {
        KV_CACHE_USAGE(PodMetrics::kvCacheUsage),
        GENERATION_THROUGHPUT(PodMetrics::generationThroughput),
        AVG_PREFILL_MILLIS(PodMetrics::avgPrefillMillis);

        private static final Column[] ALL = values();
        private final ToDoubleFunction<PodMetrics> field;

        Column(ToDoubleFunction<PodMetrics> field) {
            this.field = field;
        }
    }

    private PodSlots slots;
    private ScrapedMetrics source;
    private long version;
    private ScrapedMetrics.Entry[] entries;
    private ChangedSlots changed;
    // Each slot's last scrape as copied: when it finished, and each column (NaN without a scrape).
    private long[] scrapedAt;
    private double[][] columns;
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
                scrapedAt = new long[n];
                columns = new double[Column.ALL.length][n];
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

    /** Copies the slot's latest scrape (one immutable object, so its fields are all one scrape's). */
    private void copy(int slot) {
        ScrapedMetrics.Entry entry = entries[slot];
        PodMetrics latest = entry == null ? null : entry.latest();
        scrapedAt[slot] = latest == null ? PodMetrics.ABSENT.scrapedAtNanos() : latest.scrapedAtNanos();
        for (Column column : Column.ALL) {
            columns[column.ordinal()][slot] = latest == null ? Double.NaN : column.field.applyAsDouble(latest);
        }
    }

    /** The pod's scrape if fresh at {@code nowNanos} (the store's clock, read once per decision), else ABSENT. */
    public PodMetrics metrics(int slot, long nowNanos, long staleAfterNanos) {
        return ScrapedMetrics.fresh(entries[slot], nowNanos, staleAfterNanos);
    }

    /**
     * The column of the pod's last scrape, as copied, if that scrape is fresh at {@code nowNanos}; else NaN (as it is
     * for a pod without a scrape, whatever its time reads).
     */
    public double fresh(Column column, int slot, long nowNanos, long staleAfterNanos) {
        return ScrapedMetrics.fresh(scrapedAt[slot], nowNanos, staleAfterNanos) ? columns[column.ordinal()][slot]
                : Double.NaN;
    }
}
