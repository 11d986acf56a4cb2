package io.pdgateway.core.routing.score;

import io.pdgateway.core.cache.PrefixMatch;
import io.pdgateway.core.predict.PrefillState;
import io.pdgateway.core.predict.PrefillTimeModel;
import java.util.function.IntToDoubleFunction;

/**
 * predicted_ttft's view of warming a pod with a prefix other pods already hold: an investment, not a cost of this
 * request alone. A pod that computes a held prefix now holds it too, and the requests that carry that prefix later
 * can be spread over one more copy. If {@code n} requests carried the prefix over the last window and {@code k} pods
 * hold it, a new copy can expect {@code n / (k + 1)} of the next window's requests, so this request bears
 * {@code (k + 1) / n} of the recompute (all of it when that is 1 or more: a conversation's own history, a prefix few
 * requests share, the first copies of anything). The rest is discounted from the pod's score.
 *
 * <p>The candidates' held depths form a few levels (a system prompt held by many pods, a conversation held by one):
 * each level's segment of the prompt has its own demand and its own holders, so a pod that lacks both is charged the
 * conversation's recompute in full and the system prompt's only in share. At most {@link #MAX_LEVELS} of the deepest
 * levels are kept per decision; the shallowest kept level's share then stands for everything below it. Built once per
 * decision from arrays, no maps.
 */
final class WarmUpShares {
    static final int MAX_LEVELS = 16;

    private final long promptTokens;
    private final long blockTokens;
    /**
     * Held depths in blocks, deepest first; {@code waived[j]} is what the request need not bear of segment j's
     * recompute: 1 − its share, 0 when it bears all of it.
     */
    private final int[] levels;
    private final double[] waived;
    private final int count;
    /**
     * The prompt's uncached tokens and attention term for a pod holding level j, and, summed over the segments above
     * level j (between levels i + 1 and i, i < j), their differences times what this request need not bear of them:
     * a pod's discount is then one product with its fit, not two predictions a segment (see {@link #discountMillis}).
     */
    private final double[] uncachedAt;
    private final double[] attentionAt;
    private final double[] waivedTokensAbove;
    private final double[] waivedAttentionAbove;

    private WarmUpShares(long promptTokens, long blockTokens, int[] levels, double[] shares, int count) {
        this.promptTokens = promptTokens;
        this.blockTokens = blockTokens;
        this.levels = levels;
        this.count = count;
        waived = new double[count];
        uncachedAt = new double[count];
        attentionAt = new double[count];
        waivedTokensAbove = new double[count];
        waivedAttentionAbove = new double[count];
        for (int j = 0; j < count; j++) {
            waived[j] = Math.max(0, 1 - shares[j]);
            long cached = PrefixMatch.cachedTokens(levels[j], blockTokens, promptTokens);
            uncachedAt[j] = promptTokens - cached;
            attentionAt[j] = PrefillTimeModel.attention(uncachedAt[j], cached);
        }
        for (int j = 1; j < count; j++) {
            waivedTokensAbove[j] = waivedTokensAbove[j - 1] + waived[j - 1] * (uncachedAt[j] - uncachedAt[j - 1]);
            waivedAttentionAbove[j] = waivedAttentionAbove[j - 1]
                    + waived[j - 1] * (attentionAt[j] - attentionAt[j - 1]);
        }
    }

    /**
     * The levels of this decision, from each candidate's held blocks ({@code held[i]}, within the prompt's), and the
     * recent requests that carried each level's prefix ({@code requestsCarrying} of its blocks).
     */
    static WarmUpShares of(IntToDoubleFunction requestsCarrying, long blockTokens, long promptTokens, int[] held) {
        int[] levels = new int[MAX_LEVELS];
        int[] exactly = new int[MAX_LEVELS]; // candidates holding exactly level j
        int count = 0;
        for (int blocks : held) {
            if (blocks > 0) {
                count = insert(levels, exactly, count, blocks);
            }
        }
        double[] shares = new double[count];
        int holders = 0; // of level j: the candidates holding it or a deeper one
        for (int j = 0; j < count; j++) {
            holders += exactly[j];
            double requests = requestsCarrying.applyAsDouble(levels[j]);
            shares[j] = requests > 0 ? Math.min(1, (holders + 1) / requests) : 1;
        }
        return new WarmUpShares(promptTokens, blockTokens, levels, shares, count);
    }

    /** These levels (deepest first) and shares, as {@link #of} would find them: for tests of the discount. */
    static WarmUpShares ofLevels(long promptTokens, long blockTokens, int[] levels, double[] shares) {
        return new WarmUpShares(promptTokens, blockTokens, levels.clone(), shares, levels.length);
    }

    /**
     * Keeps the distinct depths sorted, deepest first, at most MAX_LEVELS (the deepest), each with the candidates
     * holding exactly it: a candidate whose depth is not kept (shallower than every kept one) holds no kept level.
     */
    private static int insert(int[] levels, int[] exactly, int count, int blocks) {
        int at = 0;
        while (at < count && levels[at] > blocks) {
            at++;
        }
        if (at < count && levels[at] == blocks) {
            exactly[at]++;
            return count;
        }
        if (at == MAX_LEVELS) {
            return count;
        }
        int last = Math.min(count, MAX_LEVELS - 1);
        System.arraycopy(levels, at, levels, at + 1, last - at);
        System.arraycopy(exactly, at, exactly, at + 1, last - at);
        levels[at] = blocks;
        exactly[at] = 1;
        return Math.min(count + 1, MAX_LEVELS);
    }

    /**
     * The compute, in the pod's own model (its {@link PrefillState} at {@code at}), of the held prefix it lacks that this
     * request need not bear: Σ over the levels deeper than what the pod holds of (1 − share) × that segment's
     * recompute. 0 for a pod holding the deepest.
     */
    double discountMillis(double[] state, int at, int heldBlocks) {
        int deeper = 0;
        while (deeper < count && levels[deeper] > heldBlocks) {
            deeper++;
        }
        if (deeper == 0) {
            return 0;
        }
        if (!PrefillState.linear(state, at)) {
            return discountBySegment(state, at, heldBlocks);
        }
        // The segments above the deepest level the pod lacks, then that one's part below what the pod holds.
        int last = deeper - 1;
        double tokens = waivedTokensAbove[last];
        double attention = waivedAttentionAbove[last];
        if (waived[last] > 0) {
            long cached = PrefixMatch.cachedTokens(heldBlocks, blockTokens, promptTokens);
            double uncached = promptTokens - cached;
            tokens += waived[last] * (uncached - uncachedAt[last]);
            attention += waived[last] * (PrefillTimeModel.attention(uncached, cached) - attentionAt[last]);
        }
        return PrefillState.computeDifferenceMillis(state, at, tokens, attention);
    }

    /** {@link #discountMillis} segment by segment, two predictions each: for a fit with a negative term. */
    double discountBySegment(double[] state, int at, int heldBlocks) {
        double discount = 0;
        for (int j = 0; j < count && levels[j] > heldBlocks; j++) {
            if (waived[j] > 0) {
                int from = j + 1 < count ? Math.max(heldBlocks, levels[j + 1]) : heldBlocks;
                discount += waived[j] * segmentMillis(state, at, from, levels[j]);
            }
        }
        return discount;
    }

    /** The pod's compute of this prompt holding {@code from} blocks, less holding {@code to}: that segment's cost. */
    private double segmentMillis(double[] state, int at, int from, int to) {
        long fromTokens = PrefixMatch.cachedTokens(from, blockTokens, promptTokens);
        long toTokens = PrefixMatch.cachedTokens(to, blockTokens, promptTokens);
        return PrefillState.computeMillis(state, at, promptTokens - fromTokens, fromTokens)
                - PrefillState.computeMillis(state, at, promptTokens - toTokens, toTokens);
    }
}
