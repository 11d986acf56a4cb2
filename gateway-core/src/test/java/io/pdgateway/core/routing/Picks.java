package io.pdgateway.core.routing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongFunction;

/**
 * Runs a picker under many seeds and checks what it picked: only expected pods, and when a row expects several (a
 * tie) each of them often enough that the list position cannot be what decides.
 */
public final class Picks {
    /** Seeds 0..199: enough that a fair tie between up to four pods gives each far more than half its share. */
    public static final int SEEDS = 200;
    /** What a pick of nothing is counted as. */
    public static final String NONE = "none";

    private Picks() {}

    /** How often each answer came up under seeds 0..{@link #SEEDS}-1; a null answer counts as {@link #NONE}. */
    public static Map<String, Integer> underSeeds(LongFunction<String> pick) {
        Map<String, Integer> counts = new TreeMap<>();
        for (long seed = 0; seed < SEEDS; seed++) {
            String picked = pick.apply(seed);
            counts.merge(picked == null ? NONE : picked, 1, Integer::sum);
        }
        return counts;
    }

    /**
     * Every answer is expected; with one expected answer that is every seed's answer, with k tied answers each came
     * up at least SEEDS / (2k) times (a uniform tie-break gives SEEDS / k; always the first would give 0 to the rest).
     */
    public static void assertSpread(String label, Map<String, Integer> picks, Set<String> expected) {
        assertThat(picks.keySet()).as("%s picked %s", label, picks).isSubsetOf(expected);
        int fairHalf = SEEDS / (2 * expected.size());
        for (String answer : expected) {
            assertThat(picks.getOrDefault(answer, 0)).as("%s: %s picked %s times of %s (%s)", label, answer,
                    picks.getOrDefault(answer, 0), SEEDS, picks).isGreaterThanOrEqualTo(Math.max(1, fairHalf));
        }
    }
}
