package io.pdgateway.core.predict;

/**
 * One prefill pod's fitted model and queue as one decision reads them: {@link #WIDTH} doubles copied out of the pod's
 * entry in {@link PrefillModels} at once, so that every prediction predicted_ttft makes for the pod in that decision
 * (when its leg would answer, its own compute, its compute at each level of held prefix) is arithmetic on the copy,
 * with one read of the state the pod's legs update. Layout from {@code at}: the fit's three coefficients as
 * {@link PrefillTimeModel} scales them, then the legs in flight, their summed uncached tokens and attention terms, and
 * the head of the queue's progress in milliseconds.
 */
public final class PrefillState {
    public static final int WIDTH = 7;
    static final int LEGS = 3;
    static final int TOKENS = 4;
    static final int ATTENTION = 5;
    static final int HEAD_PROGRESS = 6;

    private PrefillState() {}

    /**
     * When a leg of {@code uncached} new tokens after {@code cached} cached ones sent now would answer: the queue's
     * remaining work with its own, and never before its own compute, in milliseconds.
     */
    public static double answerMillis(double[] state, int at, double uncached, double cached) {
        return answerMillis(state, at, uncached, cached, computeMillis(state, at, uncached, cached));
    }

    /** {@link #answerMillis(double[], int, double, double)} given the leg's own compute, already predicted. */
    public static double answerMillis(double[] state, int at, double uncached, double cached, double computeMillis) {
        double work = PrefillTimeModel.work(state, at, state[at + LEGS] + 1, state[at + TOKENS] + uncached,
                state[at + ATTENTION] + PrefillTimeModel.attention(uncached, cached));
        // NaN when the fit is (the own compute is then NaN too, and so is the work): what Math.max gave
        return PrefillTimeModel.atLeast(computeMillis, work - state[at + HEAD_PROGRESS]);
    }

    /**
     * {@code computeMillis(state, at, u1, c1) − computeMillis(state, at, u2, c2)} given u1 − u2 and the attention
     * terms' difference ({@link PrefillTimeModel#attention}), when {@link #linear}; no clamp to undo.
     */
    public static double computeDifferenceMillis(double[] state, int at, double uncached, double attention) {
        return PrefillTimeModel.workDifference(state, at, uncached, attention);
    }

    /** Whether the state's fit has no negative term, so that {@link #computeDifferenceMillis} holds for it. */
    public static boolean linear(double[] state, int at) {
        return PrefillTimeModel.nonNegative(state, at);
    }

    /** The pod's own compute of such a prefill, without its queue, in milliseconds. */
    public static double computeMillis(double[] state, int at, double uncached, double cached) {
        return PrefillTimeModel.predictMillis(state, at, uncached, cached);
    }

    /**
     * Writes a state from unscaled coefficients, for a load view that knows a pod's timing without a fitted model;
     * {@code headProgressMillis} below 0 reads as that much work queued ahead of the head.
     */
    public static void write(double[] into, int at, PrefillTimeModel.Coefficients fit, int legs, double tokens,
            double attention, double headProgressMillis) {
        PrefillTimeModel.copyFit(fit, into, at);
        into[at + LEGS] = legs;
        into[at + TOKENS] = tokens;
        into[at + ATTENTION] = attention;
        into[at + HEAD_PROGRESS] = headProgressMillis;
    }
}
