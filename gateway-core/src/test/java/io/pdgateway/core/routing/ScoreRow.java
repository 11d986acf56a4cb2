package io.pdgateway.core.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.pdgateway.core.model.Pod;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One row of a scorer table: the candidates in order, the request and load around them, and the scores the spec's
 * formula gives, in candidate order (NaN where the pod is not scored).
 */
public record ScoreRow(String name, List<Pod> pods, Contexts.Request request, double[] expected) {

    /** Scores that differ by less than this (relative to the expected magnitude, at least 1) are equal. */
    private static final double TOLERANCE = 1e-9;

    public static ScoreRow row(String name, List<Pod> pods, Contexts.Request request, double... expected) {
        return new ScoreRow(name, pods, request, expected);
    }

    /**
     * Scores the row's pods and checks every score, and that the knobs a rule rejected are exactly the ones the row
     * says it expects (an invalid-config row must really be invalid, every other row valid).
     */
    public void check(Scorer scorer) {
        request.checkRejections(name);
        double[] actual = scorer.score(request.over(pods, 1), new ArrayList<>(pods));
        assertScores(scorer.name() + " in row '" + name + "'", actual, expected);
    }

    /** Equal lengths, and each score equal within the tolerance, NaN for NaN, the same infinity for an infinity. */
    public static void assertScores(String label, double[] actual, double[] expected) {
        assertThat(actual).as(label).hasSize(expected.length);
        for (int i = 0; i < expected.length; i++) {
            double a = actual[i];
            double e = expected[i];
            boolean same = Double.isNaN(e) ? Double.isNaN(a)
                    : Double.isInfinite(e) ? a == e
                    : Math.abs(a - e) <= TOLERANCE * Math.max(1, Math.abs(e));
            assertThat(same).as("%s: score %d is %s, expected %s (all: %s)", label, i, a, e, Arrays.toString(actual))
                    .isTrue();
        }
    }

    @Override
    public String toString() {
        return name;
    }
}
