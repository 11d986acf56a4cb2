package io.pdgateway.bench.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.sim.TimingProfile;
import org.junit.jupiter.api.Test;

/** Setup names: cluster shape and gateway environment from {@code <cluster>/<policy>}; unknown names say what exists. */
class CompareSetupTest {
    private static final ClusterSizes SIZES = new ClusterSizes(6, 2, 2, 1, 1, 32768, TimingProfile.llama3_8b_h100(), 1);

    @Test
    void standardSetup_isStandardPodsWithANonPdStrategy() {
        CompareSetup setup = CompareSetup.parse("standard/least-request", SIZES);

        assertThat(setup.shape().rolesets()).isZero();
        assertThat(setup.shape().standardPods()).isEqualTo(6);
        assertThat(setup.env()).containsEntry(SpecEnv.ROUTING_ALGORITHM, "least-request");
    }

    @Test
    void pdSetup_isRolesetsWithThePrefillAndDecodePolicy() {
        CompareSetup setup = CompareSetup.parse("pd/token_load:token_load", SIZES);

        assertThat(setup.shape().pods()).isEqualTo(6);
        assertThat(setup.shape().standardPods()).isZero();
        assertThat(setup.env()).containsEntry(SpecEnv.ROUTING_ALGORITHM, "pd")
                .containsEntry(SpecEnv.PREFILL_SCORE_POLICY, "token_load")
                .containsEntry(SpecEnv.DECODE_SCORE_POLICY, "token_load");
    }

    @Test
    void pdPlusStandard_addsStandardPodsForLongPromptsWithBucketing() {
        CompareSetup setup = CompareSetup.parse("pd+standard/hybrid_cache_load", SIZES);

        assertThat(setup.shape().pods()).isEqualTo(7);
        assertThat(setup.env()).containsEntry(SpecEnv.PROMPT_LENGTH_BUCKETING, "true");
        assertThat(setup.shape().standardConfig()).contains("\"combined\":true", "\"promptLenBucketMinLength\":32768");
        assertThat(setup.shape().pdConfig()).contains("\"promptLenBucketMaxLength\":32767");
    }

    @Test
    void pdRoundRobin_isThePdClusterWithNoGateway() {
        CompareSetup setup = CompareSetup.parse("pd/round-robin", SIZES);

        assertThat(setup.clientRoundRobin()).isTrue();
        assertThat(setup.shape().pods()).isEqualTo(6);
        assertThat(setup.env()).isEmpty();
        assertThat(CompareSetup.parse("pd/token_load", SIZES).clientRoundRobin()).isFalse();
    }

    @Test
    void defaults_allParse() {
        CompareSetup.DEFAULTS.forEach(name -> assertThat(CompareSetup.parse(name, SIZES).name()).isEqualTo(name));
    }

    @Test
    void unknownNames_sayWhatExists() {
        assertThatThrownBy(() -> CompareSetup.parse("pd/fastest", SIZES)).hasMessageContaining("token_load");
        assertThatThrownBy(() -> CompareSetup.parse("standard/pd", SIZES)).hasMessageContaining("least-request");
        assertThatThrownBy(() -> CompareSetup.parse("cluster", SIZES)).hasMessageContaining("pd+standard/");
    }
}
