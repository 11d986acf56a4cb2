package io.pdgateway.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pdgateway.workload.prompt.PromptSynthesizer;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Synthetic mixes: Poisson arrivals near the asked rate, determinism under a seed, conversations that resend their
 * history under one session key, a shared system prompt, and bursts.
 */
class SyntheticWorkloadTest {
    private static SyntheticWorkload mix(double rate, int turns, int sharedPrefix, int burstSize) {
        return new SyntheticWorkload(rate, 60, LengthDistribution.parse("50..150"), LengthDistribution.parse("8"),
                sharedPrefix, turns, 2, 10, burstSize, 7);
    }

    @Test
    void arrivals_comeAtAboutTheRate_withinTheDuration() {
        List<LoadRequest> requests = mix(10, 1, 0, 0).generate();

        // 600 expected; a Poisson count's standard deviation is sqrt(600) ≈ 25, so ±100 is four of them.
        assertThat(requests).hasSizeBetween(500, 700);
        assertThat(requests).allMatch(r -> r.arrivalMillis() < 60_000 && r.sessionKey() == null);
    }

    @Test
    void sameSeed_sameWorkload() {
        assertThat(mix(5, 3, 20, 2).generate()).isEqualTo(mix(5, 3, 20, 2).generate());
    }

    @Test
    void laterTurns_resendEarlierTurnsAndTheirAnswers_underOneSessionKey() {
        List<LoadRequest> requests = mix(5, 3, 0, 0).generate();
        Map<String, List<LoadRequest>> sessions = requests.stream()
                .collect(Collectors.groupingBy(LoadRequest::sessionKey));

        List<LoadRequest> turns = sessions.values().stream().filter(s -> s.size() == 3).findFirst().orElseThrow();
        String first = turns.get(0).prompt().text();
        String second = turns.get(1).prompt().text();
        assertThat(second).startsWith(first);
        // The second turn adds the first answer (8 tokens) and a new question (50..150 tokens).
        int added = turns.get(1).prompt().tokens() - turns.get(0).prompt().tokens();
        assertThat(added).isBetween(8 + 50, 8 + 150);
        assertThat(turns.get(2).prompt().text()).startsWith(second);
        assertThat(turns.get(1).arrivalMillis()).isGreaterThanOrEqualTo(turns.get(0).arrivalMillis());
    }

    @Test
    void sharedPrefix_startsEveryPrompt() {
        List<LoadRequest> requests = mix(5, 1, 64, 0).generate();
        String prefix = requests.get(0).prompt().text().substring(0, 64 * PromptSynthesizer.CHARS_PER_TOKEN);

        assertThat(requests).allMatch(r -> r.prompt().text().startsWith(prefix));
    }

    @Test
    void bursts_arriveTogether() {
        List<LoadRequest> requests = mix(1, 1, 0, 20).generate();

        // Bursts at 10, 20, 30, 40 and 50 s.
        assertThat(requests.stream().filter(r -> r.arrivalMillis() == 20_000).count()).isGreaterThanOrEqualTo(20);
    }

    @Test
    void impossibleSettings_areRejected() {
        assertThatThrownBy(() -> mix(0, 1, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SyntheticWorkload(1, 10, LengthDistribution.parse("5"),
                LengthDistribution.parse("5"), 0, 1, 1, 0, 3, 1)).hasMessageContaining("burst");
    }
}
