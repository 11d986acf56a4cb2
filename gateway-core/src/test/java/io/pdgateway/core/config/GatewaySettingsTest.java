package io.pdgateway.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Spec defaults, an unknown ROUTING_ALGORITHM stopping start-up, and bad numbers keeping their default with a warning. */
class GatewaySettingsTest {
    @Test
    void defaults_matchSpec() {
        GatewaySettings settings = GatewaySettings.defaults();
        assertThat(settings.defaultStrategy()).isEqualTo("random");
        assertThat(settings.promptLengthBucketing()).isFalse();
        assertThat(settings.pd().prefillRequestTimeout()).isEqualTo(30.0);
        assertThat(settings.kvConnectorType()).isEqualTo("shfs");
        assertThat(settings.warnings()).isEmpty();
    }

    @Test
    void unknownRoutingAlgorithm_stopsStartup() {
        assertThatThrownBy(() -> GatewaySettings.fromEnv(Map.of("ROUTING_ALGORITHM", "roundrobin")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ROUTING_ALGORITHM=roundrobin");
    }

    @Test
    void badValues_keepDefaultsWithWarnings() {
        GatewaySettings settings = GatewaySettings.fromEnv(Map.of("AIBRIX_PREFILL_REQUEST_TIMEOUT", "-3",
                "AIBRIX_PROMPT_LENGTH_BUCKETING", "maybe", "ROUTING_ALGORITHM", " PD "));
        assertThat(settings.pd().prefillRequestTimeout()).isEqualTo(30.0);
        assertThat(settings.promptLengthBucketing()).isFalse();
        assertThat(settings.defaultStrategy()).isEqualTo("pd");
        assertThat(settings.warnings()).hasSize(2);
    }
}
