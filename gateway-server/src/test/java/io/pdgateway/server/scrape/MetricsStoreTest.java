package io.pdgateway.server.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.model.PodRole;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The store routing reads engine metrics from: a pod's last scrape while it is fresh, none when stale or never
 * scraped; one entry per pod whose value each scrape replaces in place, and a version that changes exactly when the
 * set of entries does (what lets a model's decisions keep the entries by slot and look pods up only then).
 */
class MetricsStoreTest {
    private static final long STALE = 5_000;
    private long now = 100_000;
    private final MetricsStore store = new MetricsStore(STALE, () -> now);

    private static Pod pod(String name) {
        return new Pod("ns", name, "m", "10.0.0.1", 8000, 8000, "vllm", PodRole.PREFILL, "rs", null, 0, null,
                Map.of());
    }

    private static PodMetrics scraped(double waiting, long atNanos) {
        return new PodMetrics(waiting, Double.NaN, Double.NaN, 0.1, 10, 20, 1000, atNanos);
    }

    @Test
    void freshScrape_readsAsIs_staleOrNone_readsAbsent() {
        PodMetrics m = scraped(3, now - 1_000);
        store.put("ns/a", m);
        assertThat(store.metrics(pod("a"))).isSameAs(m);
        assertThat(store.metrics(pod("b"))).isSameAs(PodMetrics.ABSENT);
        now += STALE;
        assertThat(store.metrics(pod("a"))).as("older than the limit").isSameAs(PodMetrics.ABSENT);
    }

    @Test
    void version_changesWithTheSetOfEntries_notWithTheirValues() {
        long start = store.entriesVersion();
        store.put("ns/a", scraped(1, now));
        long added = store.entriesVersion();
        assertThat(added).as("a pod's first scrape").isNotEqualTo(start);
        var entry = store.entry("ns/a");
        PodMetrics next = scraped(2, now);
        store.put("ns/a", next);
        assertThat(store.entriesVersion()).as("a later scrape replaces the value in place").isEqualTo(added);
        assertThat(store.entry("ns/a")).isSameAs(entry);
        assertThat(entry.latest()).isSameAs(next);
        store.retainOnly(Set.of("ns/a"));
        assertThat(store.entriesVersion()).as("nothing dropped").isEqualTo(added);
        store.retainOnly(Set.of());
        assertThat(store.entriesVersion()).as("a pod dropped").isNotEqualTo(added);
        assertThat(store.entry("ns/a")).isNull();
    }
}
