package io.pdgateway.workload;

import io.pdgateway.workload.prompt.PromptPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A seeded synthetic workload: Poisson arrivals at {@code rate} requests per second for {@code durationSeconds},
 * prompt and completion lengths from distributions, optionally a system prompt every request shares, multi-turn
 * conversations and bursts.
 *
 * <p>Conversations: with {@code turns > 1}, conversations start as a Poisson process at {@code rate / turns} (so the
 * request rate stays about {@code rate}); turn k arrives an exponentially distributed think time (mean
 * {@code thinkSeconds}) after turn k−1 and resends the whole history: shared prefix, then each earlier user message
 * and answer, then the new user message, whose length is drawn from {@code promptTokens}. Every turn carries the
 * conversation's {@code x-aibrix-session-key}. Turns are scheduled open-loop: a turn does not wait for the previous
 * answer, so a slow server cannot slow the offered load down (a closed loop would hide the queueing).
 *
 * <p>Bursts: with {@code burstSize > 0}, {@code burstSize} extra single-turn requests arrive together every
 * {@code burstEverySeconds}.
 */
public record SyntheticWorkload(double rate, double durationSeconds, LengthDistribution promptTokens,
        LengthDistribution outputTokens, int sharedPrefixTokens, int turns, double thinkSeconds,
        double burstEverySeconds, int burstSize, long seed) {
    /** Seed families: the shared system prompt, conversation turns, burst requests. */
    static final long PREFIX_FAMILY = 0x5E57_0001L;
    static final long TURN_FAMILY = 0x5E57_0002L;
    static final long BURST_FAMILY = 0x5E57_0003L;

    public SyntheticWorkload {
        if (!(rate > 0) || !(durationSeconds > 0)) {
            throw new IllegalArgumentException("synthetic workloads need --rate > 0 and --duration > 0");
        }
        if (turns < 1 || sharedPrefixTokens < 0 || burstSize < 0 || !(thinkSeconds >= 0)) {
            throw new IllegalArgumentException("need turns >= 1, shared prefix >= 0, burst size >= 0, think time >= 0");
        }
        if (burstSize > 0 && !(burstEverySeconds > 0)) {
            throw new IllegalArgumentException("bursts need --burst-every > 0");
        }
    }

    public String describe() {
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
                "synthetic: %.1f req/s for %.0f s, prompt %s, output %s", rate, durationSeconds, promptTokens,
                outputTokens));
        if (sharedPrefixTokens > 0) {
            text.append(", shared prefix ").append(sharedPrefixTokens).append(" tokens");
        }
        if (turns > 1) {
            text.append(String.format(Locale.ROOT, ", %d-turn sessions (think %.1f s)", turns, thinkSeconds));
        }
        if (burstSize > 0) {
            text.append(String.format(Locale.ROOT, ", bursts of %d every %.0f s", burstSize, burstEverySeconds));
        }
        return text.append(", seed ").append(seed).toString();
    }

    public List<LoadRequest> generate() {
        SplittableRandom random = new SplittableRandom(seed);
        long endMillis = (long) (durationSeconds * 1000);
        List<LoadRequest> requests = new ArrayList<>();
        double conversationRate = rate / turns;
        double start = exponential(random, 1000 / conversationRate);
        for (long conversation = 0; start < endMillis; conversation++) {
            conversation(random, conversation, start, endMillis, requests);
            start += exponential(random, 1000 / conversationRate);
        }
        if (burstSize > 0) {
            long every = (long) (burstEverySeconds * 1000);
            long n = 0;
            for (long at = every; at < endMillis; at += every) {
                for (int i = 0; i < burstSize; i++, n++) {
                    requests.add(new LoadRequest(at, prefix().plus(new PromptPlan.Segment(PromptPlan.seed(BURST_FAMILY, n),
                            promptTokens.sample(random))), outputTokens.sample(random), null));
                }
            }
        }
        return requests;
    }

    private void conversation(SplittableRandom random, long conversation, double start, long endMillis,
            List<LoadRequest> out) {
        String key = turns > 1 ? "session-" + seed + "-" + conversation : null;
        PromptPlan history = prefix();
        double at = start;
        for (int turn = 0; turn < turns && at < endMillis; turn++) {
            long base = conversation * 2L * turns + 2L * turn;
            PromptPlan prompt = history.plus(new PromptPlan.Segment(PromptPlan.seed(TURN_FAMILY, base),
                    promptTokens.sample(random)));
            int output = outputTokens.sample(random);
            out.add(new LoadRequest((long) at, prompt, output, key));
            // The next turn resends this one's question and (a stand-in for) its answer.
            history = prompt.plus(new PromptPlan.Segment(PromptPlan.seed(TURN_FAMILY, base + 1), output));
            at += exponential(random, thinkSeconds * 1000);
        }
    }

    private PromptPlan prefix() {
        return sharedPrefixTokens == 0 ? new PromptPlan(List.of())
                : PromptPlan.single(sharedPrefixTokens, PromptPlan.seed(PREFIX_FAMILY, seed));
    }

    private static double exponential(SplittableRandom random, double mean) {
        return mean <= 0 ? 0 : -mean * Math.log(1.0 - random.nextDouble());
    }
}
