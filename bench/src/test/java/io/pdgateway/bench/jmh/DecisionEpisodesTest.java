package io.pdgateway.bench.jmh;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class DecisionEpisodesTest {
    private static final long FAST = 10_000;

    @Test
    void aStretchOfSlowDecisions_isAnEpisode_andTheP99OutsideItIsTheFastOnes() {
        long[] wall = steady(1000);
        wall[100] = 50_000; // scattered: one slow decision alone
        for (int i = 500; i < 520; i += 2) {
            wall[i] = 25_000; // every other decision slow for twenty: the machine's stretch
        }

        DecisionEpisodes.Window window = DecisionEpisodes.Window.of(wall, 1.7);

        assertThat(window.episodes()).isEqualTo(1);
        assertThat(window.episodeDecisions()).isEqualTo(19); // 500 to 518
        assertThat(window.slowShare()).isEqualTo(11 / 1000.0);
        assertThat(window.p99()).isEqualTo(25.0);
        assertThat(window.p99Outside()).isEqualTo(10.0);
    }

    @Test
    void slowDecisionsFurtherApartThanTheGap_stayScattered() {
        long[] wall = steady(1000);
        for (int i = 0; i < DecisionEpisodes.EPISODE_MIN_SLOW * 2; i++) {
            wall[200 + i * (DecisionEpisodes.EPISODE_MAX_GAP + 2)] = 40_000;
        }

        DecisionEpisodes.Window window = DecisionEpisodes.Window.of(wall, 1.7);

        assertThat(window.episodes()).isZero();
        assertThat(window.p99Outside()).isEqualTo(window.p99());
    }

    private static long[] steady(int decisions) {
        long[] wall = new long[decisions];
        Arrays.fill(wall, FAST);
        return wall;
    }
}
