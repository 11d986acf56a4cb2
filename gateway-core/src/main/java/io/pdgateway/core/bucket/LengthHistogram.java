package io.pdgateway.core.bucket;

/**
 * A decaying picture of the prompt lengths one model routes, in bounded memory: geometric bins 5 % wide from 1 to
 * {@link #MAX_LENGTH} tokens, each holding a request count and a prompt-token mass. Decay is applied by the planner's
 * periodic task, so recording stays a few arithmetic operations. Thread-safe.
 */
public final class LengthHistogram {
    /** Bin growth factor: 5 % resolution puts quantile cut points within 5 % of the true length. */
    static final double GROWTH = 1.05;
    /** Longest prompt tracked (longer ones land in the last bin): beyond any model's context window today. */
    static final int MAX_LENGTH = 4_000_000;
    static final int BINS = bin(MAX_LENGTH) + 1;

    private final double[] counts = new double[BINS];
    private final double[] mass = new double[BINS];

    static int bin(int length) {
        return (int) Math.floor(Math.log(Math.max(0, length) + 1.0) / Math.log(GROWTH));
    }

    /** Smallest length in the bin (inclusive). */
    static int lower(int bin) {
        return (int) Math.ceil(Math.pow(GROWTH, bin) - 1);
    }

    /** Largest length in the bin (inclusive); the upper bin edge is where the next bin starts. */
    static int upper(int bin) {
        return bin + 1 >= BINS ? Integer.MAX_VALUE : Math.max(lower(bin), lower(bin + 1) - 1);
    }

    public synchronized void record(int promptTokens) {
        int b = Math.min(bin(promptTokens), BINS - 1);
        counts[b] += 1;
        mass[b] += promptTokens;
    }

    /** Multiplies every weight by {@code factor} (0..1): old traffic fades. */
    public synchronized void decay(double factor) {
        for (int i = 0; i < BINS; i++) {
            counts[i] *= factor;
            mass[i] *= factor;
        }
    }

    /** A copy of the weights in one unit: token mass (throughput mode) or request counts (rps mode). */
    public synchronized double[] weights(boolean tokenMass) {
        return (tokenMass ? mass : counts).clone();
    }
}
