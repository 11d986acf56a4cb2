package io.pdgateway.core.model;

/**
 * One model's scraped-metrics entries in an array indexed by the pods' slots in its snapshot ({@link PodSlots}), the
 * way {@code LedgerRows} holds its ledger entries: the very entries the store replaces values in, so the rows are a
 * cache of the store's lookups by pod id, refilled only when the snapshot or the store's set of entries changed.
 *
 * <p>Not thread-safe: one per model, used under the model's lock.
 */
public final class MetricsRows {
    private PodSlots slots;
    private ScrapedMetrics source;
    private long version;
    private ScrapedMetrics.Entry[] entries;

    /** Brings the rows up to date for a decision over the pods of {@code modelSlots}; returns this. */
    public MetricsRows refresh(PodSlots modelSlots, ScrapedMetrics store) {
        // Read the version before the entries: an entry added meanwhile leaves a newer version for the next decision.
        long current = store.entriesVersion();
        if (modelSlots != slots || store != source || current != version) {
            slots = modelSlots;
            source = store;
            version = current;
            ModelPods model = modelSlots.model();
            if (entries == null || entries.length != modelSlots.size()) {
                entries = new ScrapedMetrics.Entry[modelSlots.size()];
            }
            for (int s = 0; s < entries.length; s++) {
                entries[s] = store.entry(model.pods().get(s).id());
            }
        }
        return this;
    }

    /** The pod's entry (null when never scraped), for the fields it copies ({@link ScrapedMetrics.Entry}). */
    public ScrapedMetrics.Entry entry(int slot) {
        return entries[slot];
    }

    /** The pod's scrape if fresh at {@code nowNanos} (the store's clock, read once per decision), else ABSENT. */
    public PodMetrics metrics(int slot, long nowNanos, long staleAfterNanos) {
        return ScrapedMetrics.fresh(entries[slot], nowNanos, staleAfterNanos);
    }
}
