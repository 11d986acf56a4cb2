package io.pdgateway.core.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.RoutingConfig;
import io.pdgateway.core.routing.DecodePolicy;
import io.pdgateway.core.routing.PrefillPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Per-profile routingConfig knobs override the environment for that profile only; bad values warn and keep it. */
class PdKnobsTest {
    private static RoutingConfig config(Map<String, Object> raw) {
        return new RoutingConfig(0, 0, false, null, null, raw);
    }

    @Test
    void envDefaults_matchSpecTable() {
        PdKnobs knobs = GatewaySettings.defaults().pd();
        assertThat(knobs.prefillScorePolicy()).isEqualTo(PrefillPolicy.PREFIX_CACHE);
        assertThat(knobs.decodeScorePolicy()).isEqualTo(DecodePolicy.LOAD_BALANCING);
        assertThat(knobs.prefillLoadImbalanceMinSpread()).isEqualTo(16);
        assertThat(knobs.decodeThroughputImbalanceMinSpread()).isEqualTo(2048);
        assertThat(knobs.decodeScoreRatioThreshold()).isEqualTo(1.5);
        assertThat(knobs.tokenLoadKvWeight()).isEqualTo(0.3);
        assertThat(knobs.tokenLoadRequestCost()).isEqualTo(3500);
        assertThat(knobs.hybridCacheLoadFactor()).isEqualTo(0.5);
        assertThat(knobs.decodeFirstResponseTimeout()).isEqualTo(60);
        assertThat(knobs.decodeResponseTimeout()).isZero();
        assertThat(knobs.decodeStreamIdleTimeout()).isEqualTo(120);
    }

    @Test
    void profileOverrides_onlyTheFieldsItSets() {
        PdKnobs env = GatewaySettings.fromEnv(Map.of("AIBRIX_DECODE_STREAM_IDLE_TIMEOUT", "30")).pd();
        PdKnobs.Resolved resolved = env.overriddenBy(config(Map.of("prefillScorePolicy", "token_load",
                "decodeFirstResponseTimeout", 5, "minMatchPct", 40)));
        assertThat(resolved.warnings()).isEmpty();
        assertThat(resolved.knobs().prefillScorePolicy()).isEqualTo(PrefillPolicy.TOKEN_LOAD);
        assertThat(resolved.knobs().decodeFirstResponseTimeout()).isEqualTo(5);
        assertThat(resolved.knobs().minMatchPct()).isEqualTo(40);
        assertThat(resolved.knobs().decodeStreamIdleTimeout()).as("unset: the environment's value").isEqualTo(30);
        assertThat(resolved.knobs().decodeScorePolicy()).isEqualTo(DecodePolicy.LOAD_BALANCING);
    }

    @Test
    void unknownPolicyAndBadNumbers_warnAndKeep() {
        PdKnobs.Resolved resolved = GatewaySettings.defaults().pd().overriddenBy(config(Map.of(
                "decodeScorePolicy", "not_a_real_policy", "prefillRequestTimeout", -1, "hybridCacheLoadFactor", 3)));
        assertThat(resolved.knobs()).isEqualTo(GatewaySettings.defaults().pd());
        assertThat(resolved.warnings()).hasSize(3).anySatisfy(w -> assertThat(w).contains("not_a_real_policy"));
    }

    @Test
    void resolver_warnsOncePerProfile() {
        List<String> warnings = new ArrayList<>();
        KnobsResolver resolver = new KnobsResolver(GatewaySettings.defaults().pd(), warnings::add);
        RoutingConfig bad = config(Map.of("prefillScorePolicy", "fastest"));
        for (int i = 0; i < 5; i++) {
            assertThat(resolver.resolve(bad).prefillScorePolicy()).isEqualTo(PrefillPolicy.PREFIX_CACHE);
        }
        assertThat(warnings).hasSize(1);
    }

    @Test
    void envPolicyUnknown_warnsAndKeepsDefault_trtMachineIdValidated() {
        GatewaySettings settings = GatewaySettings.fromEnv(Map.of("AIBRIX_PREFILL_SCORE_POLICY", "bogus",
                "AIBRIX_TRT_SCHEDULE_STYLE", "sideways"));
        assertThat(settings.pd().prefillScorePolicy()).isEqualTo(PrefillPolicy.PREFIX_CACHE);
        assertThat(settings.engines().trtScheduleStyle()).isEqualTo(TrtScheduleStyle.CONTEXT_FIRST);
        assertThat(settings.warnings()).hasSize(2);
        for (String bad : List.of("-1", "1024", "1025", "x")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                    () -> GatewaySettings.fromEnv(Map.of("AIBRIX_TRT_MACHINE_ID", bad)))
                    .hasMessageContaining("AIBRIX_TRT_MACHINE_ID=" + bad);
        }
        assertThat(GatewaySettings.fromEnv(Map.of("AIBRIX_TRT_MACHINE_ID", "1023")).engines().trtMachineId()).isEqualTo(1023);
    }
}
