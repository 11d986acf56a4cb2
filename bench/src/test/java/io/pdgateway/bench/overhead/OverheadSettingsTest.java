package io.pdgateway.bench.overhead;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A round or search step lasts long enough for its p99 to rest on hundreds of requests, within bounds. */
class OverheadSettingsTest {
    @Test
    void aStepAtALowRate_lastsUntilEnoughRequestsAreDue_upToItsBound() {
        assertThat(OverheadSettings.seconds(4, 80)).as("500 requests at 80 a second").isEqualTo(6.25);
        assertThat(OverheadSettings.seconds(6, 40)).as("500 at 40").isEqualTo(12.5);
        assertThat(OverheadSettings.seconds(4, 10)).as("bounded").isEqualTo(OverheadSettings.MAX_STEP_SECONDS);
    }

    @Test
    void aStepAtAHighRate_lastsAsConfigured() {
        assertThat(OverheadSettings.seconds(4, 400)).isEqualTo(4);
        assertThat(OverheadSettings.seconds(40, 10)).as("a longer configured step stays").isEqualTo(40);
    }
}
