package io.pdgateway.core.model;

import java.util.function.Function;

/**
 * Engine metrics kept in one long-lived entry per pod, whose value each scrape replaces in place: what lets a model's
 * decisions keep the entries in slot-indexed rows ({@link MetricsRows}) and read a pod's metrics as an array element,
 * instead of a map lookup by pod id and a clock read per pod. The set of entries changes rarely (a pod's first scrape,
 * pods leaving discovery), and {@link #entriesVersion} says when.
 */
public interface ScrapedMetrics extends Function<Pod, PodMetrics> {
    /** Changes whenever an entry is added or removed; replacing an entry's value does not change it. */
    long entriesVersion();

    /** The pod's entry, or null when it has never been scraped (or was dropped). */
    Entry entry(String podId);

    /** The clock scrapes are timed on ({@link PodMetrics#scrapedAtNanos}): staleness is judged against it. */
    long nowNanos();

    /** A scrape older than this reads as no metrics. */
    long staleAfterNanos();

    /** The pod's last scrape as of now, or {@link PodMetrics#ABSENT} when none or stale. */
    @Override
    default PodMetrics apply(Pod pod) {
        return fresh(entry(pod.id()), nowNanos(), staleAfterNanos());
    }

    /** The entry's scrape if it is no older than {@code staleAfterNanos} at {@code nowNanos}, else ABSENT. */
    static PodMetrics fresh(Entry entry, long nowNanos, long staleAfterNanos) {
        PodMetrics m = entry == null ? null : entry.latest;
        return m == null || !fresh(m.scrapedAtNanos(), nowNanos, staleAfterNanos) ? PodMetrics.ABSENT : m;
    }

    /** Whether a scrape that finished at {@code scrapedAtNanos} is no older than {@code staleAfterNanos} now. */
    static boolean fresh(long scrapedAtNanos, long nowNanos, long staleAfterNanos) {
        return nowNanos - scrapedAtNanos <= staleAfterNanos;
    }

    /**
     * One pod's last scrape, replaced by each new one (written by the scraper, read by routing). A model's
     * {@link MetricsRows} copy what a decision reads of every pod, and recopy it after each replacement.
     */
    final class Entry extends RowEntry {
        private volatile PodMetrics latest;

        public Entry(PodMetrics latest) {
            latest(latest);
        }

        public PodMetrics latest() {
            return latest;
        }

        public void latest(PodMetrics metrics) {
            this.latest = metrics;
            changed();
        }
    }
}
