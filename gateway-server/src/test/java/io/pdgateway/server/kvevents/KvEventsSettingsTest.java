package io.pdgateway.server.kvevents;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Defaults, derived timers, and bad values kept at their defaults with a warning. */
class KvEventsSettingsTest {

    @Test
    void defaults_deriveProbeAndReplayTimers() {
        KvEventsSettings s = KvEventsSettings.defaults();

        assertThat(s.staleAfter()).isEqualTo(Duration.ofSeconds(5));
        assertThat(s.probeAfter()).isEqualTo(Duration.ofSeconds(1)); // a fifth of the staleness limit
        assertThat(s.replayTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.maxBlocksPerPod()).isEqualTo(65_536);
        assertThat(s.warnings()).isEmpty();
    }

    @Test
    void env_overrides_andAShortLimitShortensTheReplayTimeout() {
        KvEventsSettings s = KvEventsSettings.fromEnv(Map.of(KvEventsSettings.STALE_MS_ENV, "1000",
                KvEventsSettings.MAX_BLOCKS_PER_POD_ENV, "1024"));

        assertThat(s.staleAfter()).isEqualTo(Duration.ofSeconds(1));
        assertThat(s.probeAfter()).isEqualTo(Duration.ofMillis(200));
        assertThat(s.replayTimeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(s.maxBlocksPerPod()).isEqualTo(1024);
    }

    @Test
    void badValues_keepTheirDefaults_withAWarning() {
        KvEventsSettings s = KvEventsSettings.fromEnv(Map.of(KvEventsSettings.STALE_MS_ENV, "-3",
                KvEventsSettings.MAX_BLOCKS_PER_POD_ENV, "99999999999"));

        assertThat(s.staleAfter()).isEqualTo(KvEventsSettings.DEFAULT_STALE_AFTER);
        assertThat(s.maxBlocksPerPod()).isEqualTo(KvEventsSettings.DEFAULT_MAX_BLOCKS_PER_POD);
        assertThat(s.warnings()).hasSize(2);
    }
}
