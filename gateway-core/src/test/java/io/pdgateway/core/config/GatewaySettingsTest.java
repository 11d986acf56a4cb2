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

    @Test
    void edgeSettings_ourDefaults_andOverrides() {
        GatewaySettings defaults = GatewaySettings.defaults();
        assertThat(defaults.prefillRetry()).isTrue();
        assertThat(defaults.requestBodyTimeoutSeconds()).isEqualTo(60.0);
        assertThat(defaults.apiKeys()).isNull();
        assertThat(defaults.apiKeysFile()).isNull();

        GatewaySettings set = GatewaySettings.fromEnv(Map.of("PD_GATEWAY_PREFILL_RETRY", "false",
                "PD_GATEWAY_REQUEST_BODY_TIMEOUT_SECONDS", "2.5", "PD_GATEWAY_API_KEYS", "k1,k2",
                "PD_GATEWAY_API_KEYS_FILE", "/etc/keys"));
        assertThat(set.prefillRetry()).isFalse();
        assertThat(set.requestBodyTimeoutSeconds()).isEqualTo(2.5);
        assertThat(set.apiKeys()).isEqualTo("k1,k2");
        assertThat(set.apiKeysFile()).isEqualTo("/etc/keys");

        GatewaySettings bad = GatewaySettings.fromEnv(Map.of("PD_GATEWAY_PREFILL_RETRY", "sometimes",
                "PD_GATEWAY_REQUEST_BODY_TIMEOUT_SECONDS", "0"));
        assertThat(bad.prefillRetry()).isTrue();
        assertThat(bad.requestBodyTimeoutSeconds()).isEqualTo(60.0);
        assertThat(bad.warnings()).hasSize(2);
    }
}
