package io.pdgateway.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Defaults, validation, and the engine-name registry's error message. */
class SimConfigTest {

    @Test
    void builder_noSetters_givesDocumentedDefaults() {
        SimConfig config = SimConfig.builder().build();

        assertThat(config.engine()).isEqualTo("vllm");
        assertThat(config.role()).isEqualTo(SimRole.COMBINED);
        assertThat(config.host()).isEqualTo("127.0.0.1");
        assertThat(config.port()).isZero();
        assertThat(config.modelName()).isEqualTo("my-model");
        assertThat(config.timeScale()).isEqualTo(1.0);
        assertThat(config.timing()).isEqualTo(TimingProfile.llama3_8b_h100());
        assertThat(config.faults()).isEqualTo(FaultConfig.none());
        assertThat(config.defaultMaxTokens()).isEqualTo(16);
        assertThat(config.bootstrapPort()).as("SGLang's default").isEqualTo(8998);
        assertThat(config.trtPythonTransceiver()).isTrue();
        assertThat(config.tokenizes()).as("characters counted unless told or publishing events").isFalse();
    }

    @Test
    void tokenizerOption_bundledOrCharacters_eventsImplyBundled() {
        assertThat(SimCommand.bundledTokenizer(null, false)).isFalse();
        assertThat(SimCommand.bundledTokenizer(null, true)).isTrue();
        assertThat(SimCommand.bundledTokenizer("bundled", false)).isTrue();
        assertThat(SimCommand.bundledTokenizer("characters", false)).isFalse();
        assertThatThrownBy(() -> SimCommand.bundledTokenizer("characters", true))
                .hasMessageContaining("publishes KV events");
        assertThatThrownBy(() -> SimCommand.bundledTokenizer("tiktoken", false))
                .hasMessageContaining("characters or bundled");
        assertThatThrownBy(() -> SimConfig.builder().engine("trtllm").bundledTokenizer(true).build())
                .hasMessageContaining("vllm and sglang pods only");
    }

    @Test
    void engine_unknownName_listsSupportedNames() {
        assertThatThrownBy(() -> SimConfig.builder().engine("tgi").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("tgi")
                .hasMessageContaining("supported: sglang, trtllm, vllm");
    }

    @Test
    void engine_anyCase_isNormalised() {
        assertThat(SimConfig.builder().engine(" VLLM ").build().engine()).isEqualTo("vllm");
    }

    @Test
    void invalidValues_areRejected() {
        assertThatThrownBy(() -> SimConfig.builder().timeScale(0).build()).hasMessageContaining("timeScale");
        assertThatThrownBy(() -> SimConfig.builder().port(70_000).build()).hasMessageContaining("port");
        assertThatThrownBy(() -> SimConfig.builder().defaultMaxTokens(0).build()).hasMessageContaining("defaultMaxTokens");
        assertThatThrownBy(() -> FaultConfig.none().withErrors(1.5, 500)).hasMessageContaining("errorRate");
        assertThatThrownBy(() -> FaultConfig.none().withErrors(1.0, 200)).hasMessageContaining("errorStatus");
        assertThatThrownBy(() -> FaultConfig.none().withDropAfterTokens(-2)).hasMessageContaining("dropAfterTokens");
    }

    @Test
    void role_parse_acceptsCliSpelling() {
        assertThat(SimRole.parse("Prefill")).isEqualTo(SimRole.PREFILL);
        assertThat(SimRole.DECODE.label()).isEqualTo("decode");
        assertThatThrownBy(() -> SimRole.parse("router")).hasMessageContaining("prefill, decode, combined");
    }
}
