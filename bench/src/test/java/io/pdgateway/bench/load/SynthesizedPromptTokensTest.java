package io.pdgateway.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.server.routing.PromptTokenizer;
import io.pdgateway.workload.LoadRequest;
import io.pdgateway.workload.prompt.PromptPlan;
import io.pdgateway.workload.trace.MooncakeTraceReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load generator's synthetic prompts hold as many tokens for the gateway's own tokenizer (cl100k_base, what
 * bucketing counts) as the workload says: one token a word. Here rather than in the workload library, which must not
 * depend on the server.
 */
class SynthesizedPromptTokensTest {
    @TempDir
    Path dir;

    @Test
    void promptPlanText_isOneCl100kTokenPerToken() {
        assertThat(PromptTokenizer.count(PromptPlan.single(5_000, 42).text())).isEqualTo(5_000);
    }

    @Test
    void mooncakePrompt_tokenCount_matchesTheGatewaysTokenizer() throws IOException {
        Path trace = Files.writeString(dir.resolve("mooncake.jsonl"),
                "{\"timestamp\": 0, \"input_length\": 1100, \"output_length\": 5, \"hash_ids\": [1, 2, 3]}\n");
        LoadRequest request = LoadRequest.of(MooncakeTraceReader.read(trace, Long.MAX_VALUE).get(0));

        // One cl100k token per word is what makes bucketing see the trace's lengths.
        assertThat(PromptTokenizer.count(request.prompt().text())).isEqualTo(1100);
    }
}
