package io.pdgateway.core.routing.score;

import static io.pdgateway.core.PodBuilder.decodes;
import static io.pdgateway.core.routing.Contexts.request;
import static io.pdgateway.core.routing.ScoreRow.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.DecodePolicy;
import io.pdgateway.core.routing.FixedLoad;
import io.pdgateway.core.routing.RoutingContext;
import io.pdgateway.core.routing.ScoreRow;
import io.pdgateway.core.routing.Scorer;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The NaN retry (reference §3 step H): a pod the decode policy cannot score (NaN) gets the load_balancing score,
 * computed over all the candidates; a pod still NaN stays unscored. The policy is a stub answering fixed scores, since
 * no production policy yields NaN on finite inputs. Covers: no NaN (the fallback never runs), one NaN, every score
 * NaN, the fallback NaN too, empty candidates.
 */
class NanRetryScorerTest {
    private static final double NAN = Double.NaN;

    /** The policy's fixed answer, the fallback, the row, and whether the fallback must have run. */
    record Scenario(double[] policy, Scorer fallback, ScoreRow row, boolean fallbackRuns) {
        @Override
        public String toString() {
            return row.name();
        }
    }

    /** d1 running 2, d2 running 1, d3 running 4: load_balancing = reqs/4 + 1 = 1.5, 1.25, 2. */
    private static final FixedLoad RUNNING = new FixedLoad().running("d1", 2).running("d2", 1).running("d3", 4);

    static Stream<Scenario> scenarios() {
        Scorer loadBalancing = DecodePolicy.LOAD_BALANCING.scorer();
        return Stream.of(
                new Scenario(new double[0], loadBalancing,
                        row("no candidates_no scores", decodes(), request()), false),
                // No NaN: the policy's 3, 1, 5 as they are.
                new Scenario(new double[] {3, 1, 5}, loadBalancing, row("no NaN_policy scores kept",
                        decodes("d1", "d2", "d3"), request().load(RUNNING), 3, 1, 5), false),
                // d2 NaN → its load_balancing score over all three: 1/4 + 1 = 1.25; the others keep 2 and 5.
                new Scenario(new double[] {2, NAN, 5}, loadBalancing, row("one NaN_load_balancing score",
                        decodes("d1", "d2", "d3"), request().load(RUNNING), 2, 1.25, 5), true),
                // All NaN: all load_balancing: 1.5, 1.25, 2.
                new Scenario(new double[] {NAN, NAN, NAN}, loadBalancing, row("all NaN_all load_balancing",
                        decodes("d1", "d2", "d3"), request().load(RUNNING), 1.5, 1.25, 2), true),
                // The fallback cannot score d2 either: d2 stays NaN (skipped), d1 keeps 7.
                new Scenario(new double[] {7, NAN}, new Fixed(NAN, NAN), row("fallback NaN too_stays unscored",
                        decodes("d1", "d2"), request().load(RUNNING), 7, NAN), true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void score(Scenario s) {
        Counting fallback = new Counting(s.fallback());
        s.row().check(new NanRetryScorer(new Fixed(s.policy()), fallback));
        assertThat(fallback.calls > 0).as("fallback ran").isEqualTo(s.fallbackRuns());
    }

    /** A policy with a fixed answer (a fresh copy each call). */
    private record Fixed(double... scores) implements Scorer {
        @Override
        public String name() {
            return "fixed";
        }

        @Override
        public double[] score(RoutingContext context, List<Pod> candidates) {
            return scores.clone();
        }
    }

    /** Counts the calls to a scorer. */
    private static final class Counting implements Scorer {
        private final Scorer inner;
        int calls;

        Counting(Scorer inner) {
            this.inner = inner;
        }

        @Override
        public String name() {
            return inner.name();
        }

        @Override
        public double[] score(RoutingContext context, List<Pod> candidates) {
            calls++;
            return inner.score(context, candidates);
        }
    }
}
