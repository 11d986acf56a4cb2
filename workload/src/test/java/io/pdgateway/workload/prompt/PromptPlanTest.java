package io.pdgateway.workload.prompt;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Synthetic prompt text: 4 characters a word, deterministic, and cut without changing text. */
class PromptPlanTest {
    @Test
    void text_isFourCharactersPerToken() {
        String text = PromptPlan.single(5_000, 42).text();

        // One cl100k token per word as well: bench's SynthesizedPromptTokensTest counts them with the gateway's tokenizer.
        assertThat(text).hasSize(5_000 * PromptSynthesizer.CHARS_PER_TOKEN);
    }

    @Test
    void sameSeed_sameText_otherSeed_otherText() {
        assertThat(PromptPlan.single(64, 1).text()).isEqualTo(PromptPlan.single(64, 1).text())
                .isNotEqualTo(PromptPlan.single(64, 2).text());
    }

    @Test
    void truncated_isAPrefixOfTheWholeText() {
        PromptPlan plan = new PromptPlan(List.of(new PromptPlan.Segment(1, 100), new PromptPlan.Segment(2, 100)));

        PromptPlan cut = plan.truncated(150);

        assertThat(cut.tokens()).isEqualTo(150);
        assertThat(plan.text()).startsWith(cut.text());
        assertThat(plan.truncated(500)).isSameAs(plan);
    }

    @Test
    void seedFamilies_doNotCollide() {
        assertThat(PromptPlan.seed(1, 2)).isNotEqualTo(PromptPlan.seed(2, 1)).isNotEqualTo(PromptPlan.seed(1, 3));
    }
}
