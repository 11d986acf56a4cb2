package io.pdgateway.bench.jmh;

import io.pdgateway.core.session.PromptFeatures;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * Whether a decision's tail is scattered or comes in episodes: {@link RoutingDecisionBenchmark}'s decisions timed one
 * by one on the wall clock, in windows of a few seconds, and the slow ones (over a factor of the window's median)
 * grouped into episodes: at least {@link #EPISODE_MIN_SLOW} slow decisions with at most {@link #EPISODE_MAX_GAP}
 * between two of them. A slow decision of its own (a timer interrupt, a collection) stays scattered; a stretch of tens
 * of milliseconds in which every other decision runs twice as long is a phase, of the machine or of a state the
 * decisions pass through, and tells where to look next. Each window reports its percentiles, its episodes, and the
 * p99 of the decisions outside them: a diagnosis beside JMH's figure, never instead of it.
 *
 * <p>{@code java -cp bench/target/benchmarks.jar io.pdgateway.bench.jmh.DecisionEpisodes [pods=512]
 * [policies=predicted_ttft/token_load] [promptTokens=8000] [warmup=100000] [decisions=300000] [windows=4]
 * [slowFactor=1.7]}: every decision a new turn of the conversation, as in the JMH benchmark.
 */
public final class DecisionEpisodes {
    static final int EPISODE_MIN_SLOW = 5;
    static final int EPISODE_MAX_GAP = 3;

    private DecisionEpisodes() {}

    public static void main(String[] args) {
        Map<String, String> options = ToolOptions.parse(Map.of("pods", "512", "policies", "predicted_ttft/token_load",
                "promptTokens", "8000", "warmup", "100000", "decisions", "300000", "windows", "4", "slowFactor",
                "1.7"), args);
        DecisionBatches model = new DecisionBatches(Integer.parseInt(options.get("pods")), options.get("policies"),
                Integer.parseInt(options.get("promptTokens")), true);
        for (int i = Integer.parseInt(options.get("warmup")); i > 0; i--) {
            model.decide(model.next());
        }
        double factor = Double.parseDouble(options.get("slowFactor"));
        System.out.printf(Locale.ROOT, "%s, %s pods, %s-token prompts; slow = over %.1fx the window's median%n",
                options.get("policies"), options.get("pods"), options.get("promptTokens"), factor);
        long[] wall = new long[Integer.parseInt(options.get("decisions"))];
        for (int w = 1; w <= Integer.parseInt(options.get("windows")); w++) {
            long start = System.nanoTime();
            for (int i = 0; i < wall.length; i++) {
                PromptFeatures request = model.next(); // rewritten in place, outside the timed call
                long before = System.nanoTime();
                model.decide(request);
                wall[i] = System.nanoTime() - before;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.println("window " + w + " (" + String.format(Locale.ROOT, "%.1f s", seconds) + "): "
                    + Window.of(wall, factor));
        }
    }

    /** One window's figures. */
    record Window(double p50, double p95, double p99, double p999, double slowShare, int episodes,
            int episodeDecisions, double episodeMillis, double p99Outside) {

        static Window of(long[] wall, double factor) {
            long[] sorted = wall.clone();
            Arrays.sort(sorted);
            long threshold = (long) (sorted[sorted.length / 2] * factor);
            boolean[] inEpisode = new boolean[wall.length];
            int slow = 0;
            int episodes = 0;
            int episodeDecisions = 0;
            long episodeNanos = 0;
            int i = 0;
            while (i < wall.length) {
                if (wall[i] <= threshold) {
                    i++;
                    continue;
                }
                int last = i;
                int count = 0;
                for (int j = i; j < wall.length && j - last <= EPISODE_MAX_GAP; j++) {
                    if (wall[j] > threshold) {
                        last = j;
                        count++;
                    }
                }
                slow += count;
                if (count >= EPISODE_MIN_SLOW) {
                    episodes++;
                    episodeDecisions += last - i + 1;
                    for (int j = i; j <= last; j++) {
                        inEpisode[j] = true;
                        episodeNanos += wall[j];
                    }
                }
                i = last + 1;
            }
            long[] outside = new long[wall.length - episodeDecisions];
            int n = 0;
            for (int j = 0; j < wall.length; j++) {
                if (!inEpisode[j]) {
                    outside[n++] = wall[j];
                }
            }
            Arrays.sort(outside);
            return new Window(SortedNanos.micros(sorted, 0.5), SortedNanos.micros(sorted, 0.95),
                    SortedNanos.micros(sorted, 0.99), SortedNanos.micros(sorted, 0.999),
                    (double) slow / wall.length, episodes, episodeDecisions, episodeNanos / 1e6,
                    outside.length == 0 ? Double.NaN : SortedNanos.micros(outside, 0.99));
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "p50 %.1f, p95 %.1f, p99 %.1f, p99.9 %.1f µs; %.2f %% slow; %d episodes"
                    + " (%d decisions, %.1f ms); outside them p99 %.1f µs", p50, p95, p99, p999, 100 * slowShare,
                    episodes, episodeDecisions, episodeMillis, p99Outside);
        }
    }
}
