package io.pdgateway.server.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EngineCacheHitsTest {
    private static final double NONE = Double.NaN;
    private final EngineCacheHits hits = new EngineCacheHits();

    @Test
    void totalsFollowTheEnginesCounters_andCountOnOverARestart() {
        hits.observe("ns/a", 300, 1_000, NONE); // the engine's totals when the gateway first scrapes it
        hits.observe("ns/a", 500, 1_400, NONE);
        hits.observe("ns/a", 40, 100, NONE); // restarted: its counters start again from zero

        assertThat(hits.hitTokens("ns/a")).isEqualTo(540);
        assertThat(hits.queriedTokens("ns/a")).isEqualTo(1_500);
        assertThat(hits.countingPods()).containsExactly("ns/a");
        assertThat(hits.ratePods()).isEmpty();
    }

    @Test
    void aRateGauge_isTheEnginesLatest() {
        hits.observe("ns/s", NONE, NONE, 0.25);
        hits.observe("ns/s", NONE, NONE, 0.5);

        assertThat(hits.hitRate("ns/s")).isEqualTo(0.5);
        assertThat(hits.ratePods()).containsExactly("ns/s");
        assertThat(hits.countingPods()).isEmpty();
    }

    @Test
    void aPodWithoutTheFigures_orOneCounterOfTwo_hasNoSeries() {
        hits.observe("ns/d", NONE, NONE, NONE);
        hits.observe("ns/h", 10, NONE, NONE);

        assertThat(hits.countingPods()).isEmpty();
        assertThat(hits.ratePods()).isEmpty();
        assertThat(hits.hitTokens("ns/h")).isZero();
        assertThat(hits.hitRate("ns/d")).isNaN();
    }

    @Test
    void aPodsFirstFigures_areToldOnce_withTheFiguresInPlace() {
        List<String> told = new ArrayList<>();
        hits.onFirstFigures(id -> told.add(id + (hits.counting(id) ? " counts" : " rate " + hits.hitRate(id))));

        hits.observe("ns/d", NONE, NONE, NONE);
        hits.observe("ns/a", 1, 2, NONE);
        hits.observe("ns/a", 3, 4, NONE);
        hits.observe("ns/s", NONE, NONE, 0.5);

        assertThat(told).containsExactly("ns/a counts", "ns/s rate 0.5");
    }

    @Test
    void podsThatLeft_areForgotten() {
        hits.observe("ns/a", 1, 2, NONE);
        hits.observe("ns/s", NONE, NONE, 0.5);

        hits.retainOnly(Set.of("ns/s"));

        assertThat(hits.countingPods()).isEmpty();
        assertThat(hits.ratePods()).containsExactly("ns/s");
    }
}
