package io.pdgateway.workload;

import io.pdgateway.workload.prompt.PromptPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * What a run does to a trace before replaying it: arrival-rate scaling, then the caps that bound a run in time.
 *
 * @param speedup         recorded arrival times are divided by this (2 = twice the recorded rate)
 * @param rate            when > 0, recorded times are replaced by Poisson arrivals at this many requests per second
 *                        (the trace then only supplies lengths and prefixes)
 * @param maxSeconds      requests arriving later than this (after scaling) are dropped; 0 = no limit
 * @param maxRequests     at most this many requests, the earliest; 0 = no limit
 * @param maxPromptTokens prompts are cut to this many tokens (their prefix structure kept); 0 = no limit
 * @param maxOutputTokens completions are capped at this many tokens; 0 = no limit
 * @param seed            seeds the Poisson arrivals
 */
public record WorkloadShaping(double speedup, double rate, double maxSeconds, int maxRequests, int maxPromptTokens,
        int maxOutputTokens, long seed) {
    public WorkloadShaping {
        if (!(speedup > 0) || rate < 0 || maxSeconds < 0 || maxRequests < 0 || maxPromptTokens < 0
                || maxOutputTokens < 0) {
            throw new IllegalArgumentException("need speedup > 0 and no negative rate, duration or caps");
        }
    }

    public static WorkloadShaping none() {
        return new WorkloadShaping(1, 0, 0, 0, 0, 0, 0);
    }

    public List<LoadRequest> apply(List<LoadRequest> trace) {
        List<LoadRequest> shaped = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(seed);
        double poissonAt = 0;
        for (LoadRequest request : trace) {
            long at;
            if (rate > 0) {
                poissonAt += -1000.0 / rate * Math.log(1.0 - random.nextDouble());
                at = (long) poissonAt;
            } else {
                at = (long) (request.arrivalMillis() / speedup);
            }
            if (maxSeconds > 0 && at > maxSeconds * 1000) {
                break;
            }
            if (maxRequests > 0 && shaped.size() >= maxRequests) {
                break;
            }
            PromptPlan prompt = maxPromptTokens > 0 ? request.prompt().truncated(maxPromptTokens) : request.prompt();
            int output = maxOutputTokens > 0 ? Math.min(maxOutputTokens, request.outputTokens()) : request.outputTokens();
            shaped.add(new LoadRequest(at, prompt, output, request.sessionKey()));
        }
        return shaped;
    }

    public String describe() {
        List<String> parts = new ArrayList<>();
        parts.add(rate > 0 ? String.format(Locale.ROOT, "Poisson arrivals at %.1f req/s", rate)
                : String.format(Locale.ROOT, "recorded arrivals at %.2fx", speedup));
        if (maxSeconds > 0) {
            parts.add(String.format(Locale.ROOT, "first %.0f s", maxSeconds));
        }
        if (maxRequests > 0) {
            parts.add("at most " + maxRequests + " requests");
        }
        if (maxPromptTokens > 0) {
            parts.add("prompts cut to " + maxPromptTokens + " tokens");
        }
        if (maxOutputTokens > 0) {
            parts.add("outputs capped at " + maxOutputTokens + " tokens");
        }
        return String.join(", ", parts);
    }
}
