package io.pdgateway.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pdgateway.core.routing.Strategy;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Spec defaults, an unknown ROUTING_ALGORITHM stopping start-up, and bad numbers keeping their default with a warning. */
class GatewaySettingsTest {
    @Test
    void defaults_matchSpec() {
        GatewaySettings settings = GatewaySettings.defaults();
        assertThat(settings.routing().defaultStrategy()).isEqualTo(Strategy.RANDOM);
        assertThat(settings.routing().promptLengthBucketing()).isFalse();
        assertThat(settings.pd().prefillRequestTimeout()).isEqualTo(30.0);
        assertThat(settings.engines().kvConnectorType()).isEqualTo("shfs");
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
        assertThat(settings.routing().promptLengthBucketing()).isFalse();
        assertThat(settings.routing().defaultStrategy()).isEqualTo(Strategy.PD);
        assertThat(settings.warnings()).hasSize(2);
    }

    @Test
    void edgeSettings_ourDefaults_andOverrides() {
        GatewaySettings defaults = GatewaySettings.defaults();
        assertThat(defaults.front().prefillRetry()).isTrue();
        assertThat(defaults.front().requestBodyTimeoutSeconds()).isEqualTo(60.0);
        assertThat(defaults.front().apiKeys()).isNull();
        assertThat(defaults.front().apiKeysFile()).isNull();
        assertThat(defaults.front().corsAllowedOrigins()).as("no origin answered unless named").isNull();

        GatewaySettings set = GatewaySettings.fromEnv(Map.of("PD_GATEWAY_PREFILL_RETRY", "false",
                "PD_GATEWAY_REQUEST_BODY_TIMEOUT_SECONDS", "2.5", "PD_GATEWAY_API_KEYS", "k1,k2",
                "PD_GATEWAY_API_KEYS_FILE", "/etc/keys",
                "PD_GATEWAY_CORS_ALLOWED_ORIGINS", "https://chat.example.com"));
        assertThat(set.front().prefillRetry()).isFalse();
        assertThat(set.front().requestBodyTimeoutSeconds()).isEqualTo(2.5);
        assertThat(set.front().apiKeys()).isEqualTo("k1,k2");
        assertThat(set.front().apiKeysFile()).isEqualTo("/etc/keys");
        assertThat(set.front().corsAllowedOrigins()).isEqualTo("https://chat.example.com");

        GatewaySettings bad = GatewaySettings.fromEnv(Map.of("PD_GATEWAY_PREFILL_RETRY", "sometimes",
                "PD_GATEWAY_REQUEST_BODY_TIMEOUT_SECONDS", "0"));
        assertThat(bad.front().prefillRetry()).isTrue();
        assertThat(bad.front().requestBodyTimeoutSeconds()).isEqualTo(60.0);
        assertThat(bad.warnings()).hasSize(2);
    }
}
