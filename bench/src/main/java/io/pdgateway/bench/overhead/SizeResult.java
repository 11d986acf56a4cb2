package io.pdgateway.bench.overhead;

import io.pdgateway.workload.prompt.PromptSynthesizer;
import java.util.List;
import java.util.Optional;

/**
 * Every target at one prompt size in one scenario; the first target is the reference the others are judged against.
 *
 * @param scenario what was measured, e.g. "single hop" or "vLLM PD"
 */
public record SizeResult(String scenario, int promptTokens, List<TargetResult> targets) {
    public SizeResult {
        targets = List.copyOf(targets);
    }

    public int promptBytes() {
        return promptTokens * PromptSynthesizer.CHARS_PER_TOKEN;
    }

    public TargetResult direct() {
        return targets.get(0);
    }

    public Optional<TargetResult> target(String name) {
        return targets.stream().filter(t -> t.target().equals(name)).findFirst();
    }
}
