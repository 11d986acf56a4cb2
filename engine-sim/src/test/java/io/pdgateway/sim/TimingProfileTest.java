package io.pdgateway.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * The two named profiles reproduce engine-timing.md §7.2 "Resulting curves" within 2 %: TTFT of a lone prompt
 * (no cache) and decode step times at a per-sequence context and batch, plus the §7.2 transfer examples.
 */
class TimingProfileTest {

    private static final double TOLERANCE = 0.02;
    private static final TimingProfile SMALL = TimingProfile.llama3_8b_h100();
    private static final TimingProfile LARGE = TimingProfile.llama3_70b_tp4_h100();

    /** Rows: prompt tokens, 8B TTFT (ms), 70B TP4 TTFT (ms). E.g. 8B at 1,024: 20 + 21.5 + 0.42 = 41.9. */
    static Stream<Arguments> ttftTable() {
        return Stream.of(
                Arguments.of(128, 22.7, 57.7),
                Arguments.of(1_024, 41.9, 112.0),
                Arguments.of(2_048, 64.7, 176.0),
                Arguments.of(4_096, 113.0, 307.0),
                Arguments.of(8_192, 219.0, 586.0),
                Arguments.of(16_384, 471.0, 1_210.0),
                Arguments.of(32_768, 1_138.0, 2_725.0));
    }

    /**
     * Rows: context per sequence, batch B, 8B step (ms), 70B TP4 step (ms); ΣC = context × B.
     * E.g. 8B at 2,048 × 32: 7.2 + 0.012·32 + 4.4e-5·65,536 = 10.46.
     */
    static Stream<Arguments> stepTable() {
        return Stream.of(
                Arguments.of(512, 1, 7.2, 18.0),
                Arguments.of(512, 32, 8.3, 19.4),
                Arguments.of(2_048, 32, 10.5, 20.9),
                Arguments.of(2_048, 128, 20.3, 29.4),
                Arguments.of(2_048, 256, 33.3, 40.9),
                Arguments.of(8_192, 64, 31.0, 35.1),
                Arguments.of(8_192, 256, 102.6, 86.5));
    }

    @ParameterizedTest(name = "prompt {0}: 8B {1} ms, 70B {2} ms")
    @MethodSource("ttftTable")
    void prefillMillis_uncachedPrompt_matchesTable(int tokens, double small, double large) {
        assertThat(SMALL.prefillMillis(tokens, 0)).isCloseTo(small, within(small * TOLERANCE));
        assertThat(LARGE.prefillMillis(tokens, 0)).isCloseTo(large, within(large * TOLERANCE));
    }

    @ParameterizedTest(name = "context {0}, B={1}: 8B {2} ms, 70B {3} ms")
    @MethodSource("stepTable")
    void decodeStepMillis_batch_matchesTable(int context, int batch, double small, double large) {
        long total = (long) context * batch;
        assertThat(SMALL.decodeStepMillis(batch, total)).isCloseTo(small, within(small * TOLERANCE));
        assertThat(LARGE.decodeStepMillis(batch, total)).isCloseTo(large, within(large * TOLERANCE));
    }

    @Test
    void kvTransferMillis_8kPrompt_matchesRdmaExamples() {
        // §7.2: 8B, 8k tokens = 1.07 GB → 44 ms on one RDMA NIC; 70B TP4, 2.68 GB → 28 ms on 4 NICs.
        assertThat(SMALL.kvTransferMillis(8_192)).isCloseTo(44.0, within(44.0 * TOLERANCE));
        assertThat(LARGE.kvTransferMillis(8_192)).isCloseTo(28.0, within(28.0 * TOLERANCE));
    }

    @Test
    void kvTransferMillis_tcpFallback_matchesExample() {
        // §7.2: 8B 8k tokens on TCP (5 ms, 2 GB/s) → 0.54 s.
        assertThat(SMALL.withTransfer(5.0, 2.0e9).kvTransferMillis(8_192)).isCloseTo(542.0, within(542.0 * TOLERANCE));
    }

    @Test
    void prefillMillis_cachedPrefix_costsOnlyAttentionOverIt() {
        // 1,024 new tokens on 1,024 cached: a + b·1024 + 2c·1024·(1024 + 512) = 20 + 21.5 + 1.26.
        assertThat(SMALL.prefillMillis(1_024, 1_024)).isCloseTo(42.76, within(0.01));
        assertThat(SMALL.prefillMillis(1_024, 1_024)).isLessThan(SMALL.prefillMillis(2_048, 0));
    }

    @Test
    void byName_knownAndUnknown() {
        assertThat(TimingProfile.byName("llama3-70b-tp4-h100")).isEqualTo(LARGE);
        assertThatThrownBy(() -> TimingProfile.byName("gpt-9"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("llama3-8b-h100").hasMessageContaining("llama3-70b-tp4-h100");
    }
}
