package io.pdgateway.core.predict;

/**
 * How long one pod computes prefills, fitted online from the legs the gateway itself timed. A prompt with {@code u}
 * uncached tokens after {@code p} cached ones costs
 *
 * <pre>  work = a + b · u + c · u · (p + u / 2)</pre>
 *
 * the engine's own cost model (reference/engine-timing.md §9: a fixed cost, a per-token cost, attention over the
 * context). A pod works through its prefills about first come, first served, however it batches them into steps, so
 * a leg answers once the work ahead of it and its own is done: {@link PrefillModels} observes each leg's latency
 * against the summed work terms (n legs, Σu, Σ attention) of the legs it found in flight and its own. That is linear
 * in (a, b, c), so recursive least squares with exponential forgetting fits it and keeps it current as load changes;
 * it starts from the model's default coefficients, held with moderate confidence so that a few odd legs do not move
 * it far. Also keeps the mean relative error of its predictions, for the metric.
 *
 * <p>Coefficients are in milliseconds; features are scaled to comparable magnitudes (thousands of tokens, millions of
 * token²) so the fit stays well conditioned. Not thread-safe: its {@link PrefillModels} guards it.
 */
public final class PrefillTimeModel {
    /** Old legs weigh half as much after ~700 newer ones: adapts within minutes at production rates. */
    static final double FORGETTING = 0.999;
    /**
     * Prior confidence: the initial covariance is this times the identity (in scaled units). Small enough that the
     * default holds until tens of legs disagree with it, large enough that real pods take over quickly.
     */
    static final double PRIOR_VARIANCE = 25;
    /** The error average weighs the last ~50 legs. */
    static final double ERROR_SMOOTHING = 0.02;
    private static final double TOKEN_SCALE = 1e-3;
    private static final double QUADRATIC_SCALE = 1e-6;

    private final double[] prior = new double[3];
    private final double[] theta = new double[3];
    private final double[][] covariance = new double[3][3];
    private double meanRelativeError = Double.NaN;
    private long observations;

    /** @param prior the default coefficients (a ms, b ms/token, c ms/token²) */
    public PrefillTimeModel(Coefficients prior) {
        this.prior[0] = prior.fixedMillis();
        this.prior[1] = prior.millisPerToken() / TOKEN_SCALE;
        this.prior[2] = prior.millisPerTokenSquared() / QUADRATIC_SCALE;
        System.arraycopy(this.prior, 0, theta, 0, 3);
        for (int i = 0; i < 3; i++) {
            covariance[i][i] = PRIOR_VARIANCE;
        }
    }

    /**
     * Moves the fit back towards the default: keeps {@code retained} (0..1) of what the legs taught it and of the
     * confidence they gave it, so that new legs teach it as fast as they taught the fresh model. Fading by r then s is
     * fading by r · s.
     */
    public void fade(double retained) {
        double r = Math.max(0, Math.min(1, retained));
        for (int i = 0; i < 3; i++) {
            theta[i] = prior[i] + r * (theta[i] - prior[i]);
            for (int j = 0; j < 3; j++) {
                covariance[i][j] = r * covariance[i][j] + (i == j ? (1 - r) * PRIOR_VARIANCE : 0);
            }
        }
    }

    /** The model's coefficients: a fixed cost, a cost per token, and an attention cost per token². */
    public record Coefficients(double fixedMillis, double millisPerToken, double millisPerTokenSquared) {
        /** Llama-3-8B on one H100 with vLLM (reference/engine-timing.md §9, line 2). */
        public static final Coefficients LLAMA3_8B_H100 = new Coefficients(20, 0.021, 4.0e-7);
    }

    /** The attention term of one prompt: u · (p + u / 2), in token². */
    public static double attention(double uncached, double cached) {
        return uncached * (cached + uncached / 2);
    }

    /** Predicted compute of one prompt, in milliseconds. */
    public double predictMillis(double uncached, double cached) {
        return predictWork(1, uncached, attention(uncached, cached));
    }

    /** Predicted compute of {@code legs} prompts with {@code tokens} uncached tokens and {@code attention} in all. */
    public double predictWork(double legs, double tokens, double attention) {
        return work(theta, 0, legs, tokens, attention);
    }

    /**
     * Term {@code i} of the current fit (0 fixed, 1 per token, 2 attention), scaled as
     * {@link #predictMillis(double[], int, double, double)} reads it from a copied state.
     */
    double fitTerm(int i) {
        return theta[i];
    }

    /** Writes these coefficients as a fitted model's terms are copied ({@link #fitTerm}). */
    static void copyFit(Coefficients fit, double[] into, int at) {
        into[at] = fit.fixedMillis();
        into[at + 1] = fit.millisPerToken() / TOKEN_SCALE;
        into[at + 2] = fit.millisPerTokenSquared() / QUADRATIC_SCALE;
    }

    /** {@link #predictMillis(double, double)} of a fit copied to {@code fit[at..at+2]} (its {@link #fitTerm}s). */
    static double predictMillis(double[] fit, int at, double uncached, double cached) {
        return work(fit, at, 1, uncached, attention(uncached, cached));
    }

    /**
     * Whether the fit copied at {@code fit[at..]} has no negative term: then no prediction of it is clamped at 0, and
     * the difference of two predictions is {@link #workDifference} of their terms' differences.
     */
    static boolean nonNegative(double[] fit, int at) {
        return fit[at] >= 0 && fit[at + 1] >= 0 && fit[at + 2] >= 0;
    }

    /** The difference of two one-leg predictions of a {@link #nonNegative} fit whose terms differ by these. */
    static double workDifference(double[] fit, int at, double tokens, double attention) {
        return fit[at + 1] * tokens * TOKEN_SCALE + fit[at + 2] * attention * QUADRATIC_SCALE;
    }

    static double work(double[] fit, int at, double legs, double tokens, double attention) {
        return atLeast(0, fit[at] * legs + fit[at + 1] * tokens * TOKEN_SCALE
                + fit[at + 2] * attention * QUADRATIC_SCALE);
    }

    /**
     * The larger of {@code floor} and {@code x}, NaN when x is NaN: {@code Math.max} but for the sign of a zero, which
     * no prediction here tells apart. A predicted_ttft decision makes three such comparisons for every prefill pod;
     * with {@code Math.max} (whose NaN and -0.0 rules cost a chain of blends on x86) a 512-pod decision's median was
     * 0.8 µs longer (12.5 µs, JDK 17, 2026-12-06).
     */
    static double atLeast(double floor, double x) {
        return x < floor ? floor : x;
    }

    /** Learns from one timed prefill of one prompt alone on the pod. */
    public void observe(double uncached, double cached, double millis) {
        observeWork(1, uncached, attention(uncached, cached), millis);
    }

    /** Learns that work of these summed terms took {@code millis}. */
    public void observeWork(double legs, double tokens, double attention, double millis) {
        if (!(millis > 0) || legs <= 0) {
            return;
        }
        double[] x = {legs, tokens * TOKEN_SCALE, attention * QUADRATIC_SCALE};
        double predicted = dot(theta, x);
        double error = Math.abs(predicted - millis) / millis;
        meanRelativeError = Double.isNaN(meanRelativeError) ? error
                : meanRelativeError + ERROR_SMOOTHING * (error - meanRelativeError);
        // RLS: k = P x / (λ + xᵀ P x); θ += k (y − xᵀθ); P = (P − k xᵀ P) / λ.
        double[] px = new double[3];
        for (int i = 0; i < 3; i++) {
            px[i] = dot(covariance[i], x);
        }
        double denominator = FORGETTING + dot(x, px);
        double residual = millis - predicted;
        for (int i = 0; i < 3; i++) {
            theta[i] += px[i] / denominator * residual;
        }
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                covariance[i][j] = (covariance[i][j] - px[i] * px[j] / denominator) / FORGETTING;
            }
        }
        observations++;
    }

    /** The current fit, in milliseconds per unscaled unit. */
    public Coefficients coefficients() {
        return new Coefficients(theta[0], theta[1] * TOKEN_SCALE, theta[2] * QUADRATIC_SCALE);
    }

    /** Mean |predicted − actual| / actual over roughly the last 50 legs; NaN before the first. */
    public double meanRelativeError() {
        return meanRelativeError;
    }

    public long observations() {
        return observations;
    }

    private static double dot(double[] a, double[] b) {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }
}
