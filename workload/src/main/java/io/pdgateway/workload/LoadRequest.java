package io.pdgateway.workload;

import io.pdgateway.workload.prompt.PromptPlan;
import io.pdgateway.workload.prompt.TracePrompts;
import io.pdgateway.workload.trace.TraceRequest;
import java.util.List;

/**
 * One request a load generator sends: when, with which prompt text, asking for how many tokens.
 *
 * @param arrivalMillis when it is sent, in milliseconds from the start of the run
 * @param prompt        how to build its prompt text
 * @param outputTokens  the completion length asked for ({@code max_tokens})
 * @param sessionKey    sent as {@code x-aibrix-session-key} when not null (turns of one conversation)
 */
public record LoadRequest(long arrivalMillis, PromptPlan prompt, int outputTokens, String sessionKey) {
    public LoadRequest {
        if (arrivalMillis < 0) {
            throw new IllegalArgumentException("arrivalMillis must be >= 0, got " + arrivalMillis);
        }
        if (outputTokens < 1) {
            throw new IllegalArgumentException("outputTokens must be >= 1, got " + outputTokens);
        }
    }

    /** A trace row replayed as recorded: its arrival (whole milliseconds) and lengths, its prompt from its hash ids. */
    public static LoadRequest of(TraceRequest row) {
        return new LoadRequest((long) row.arrivalMillis(), TracePrompts.plan(row), row.outputTokens(), null);
    }

    public static List<LoadRequest> fromTrace(List<TraceRequest> rows) {
        return rows.stream().map(LoadRequest::of).toList();
    }

    public LoadRequest at(long millis) {
        return new LoadRequest(millis, prompt, outputTokens, sessionKey);
    }
}
