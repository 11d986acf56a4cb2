package io.pdgateway.bench.validate;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.routing.DecisionKind;
import io.pdgateway.core.routing.Verdict;
import io.pdgateway.routingsim.run.RequestRecord;
import io.pdgateway.server.routing.PromptTokenizer;
import io.pdgateway.workload.run.RequestResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The pieces of the loopback validation that can be checked without the 90-second run: prompts are exactly the
 * engine tokens the simulator assumes and about as many cl100k tokens (what bucketing counts), start with a block of
 * their own, and the comparison gates on the stated tolerances.
 */
class ValidationTest {

    @Test
    void prompt_isExactlyNEngineTokens_andAboutNCl100kTokens() {
        for (int tokens : new int[] {16, 500, 2048, 6000}) {
            String text = ValidationPrompts.text(tokens, 7);
            assertThat(text).hasSize(4 * tokens); // engine-sim: four characters per token
            assertThat(PromptTokenizer.count(text)).isBetween((int) (tokens * 0.98), (int) (tokens * 1.02) + 2);
        }
        assertThat(ValidationPrompts.text(100, 1).substring(0, 4)).isNotEqualTo(ValidationPrompts.text(100, 2)
                .substring(0, 4));
    }

    @Test
    void comparison_withinTolerance_agrees_outside_doesNot() {
        List<RequestRecord> simulated = new ArrayList<>();
        List<RequestResult> close = new ArrayList<>();
        List<RequestResult> far = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            double ttft = 50 + i;
            simulated.add(new RequestRecord(i, 0, 100, 11, DecisionKind.PD_PAIR, Verdict.PD_PAIR_SELECTED,
                    "final-score", "p", "d", Math.round(ttft * 1e6), Math.round((ttft + 80) * 1e6), 0, null));
            close.add(new RequestResult(0, 0, 200, "pd p -> d", false, -1, ttft * 1.05, 8.4, -1, 0, 0, null));
            far.add(new RequestResult(0, 0, 200, "pd p -> d", false, -1, ttft * 1.5, 8.0, -1, 0, 0, null));
        }
        Comparison ok = Comparison.of(simulated, close, 1);
        assertThat(ok.agrees(0.10, 0.20)).isTrue();
        assertThat(ok.table(0.10, 0.20)).contains("TTFT all p50").contains("ok");
        Comparison off = Comparison.of(simulated, far, 1);
        assertThat(off.agrees(0.10, 0.20)).isFalse();
        assertThat(off.table(0.10, 0.20)).contains("OUTSIDE");
    }
}
