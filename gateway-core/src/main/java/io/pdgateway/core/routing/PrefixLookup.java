package io.pdgateway.core.routing;

import io.pdgateway.core.cache.CacheModel;
import io.pdgateway.core.cache.PrefixMatch;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import java.util.function.ToIntFunction;

/**
 * The request's prompt looked up in its model's prefix-cache view, once per decision and only if a stage asks: every
 * pod that computes prompts (prefill and standard pods) gets its matched blocks. Used by one decision on one thread.
 */
public final class PrefixLookup {
    /** No prompt blocks or no view: every pod matches 0 %. */
    public static final PrefixLookup NONE = new PrefixLookup(null, new long[0], null, 1);

    private final CacheModel view;
    private final long[] hashes;
    private final ModelPods model;
    private final int blockTokens;
    /** The model's reusable match the lookup refills, or null for a new one. */
    private final PrefixMatch reuse;
    /** A pod's position in the model's computing pods (found without hashing), or null. */
    private ToIntFunction<Pod> positions;
    private PrefixMatch match;

    /** @param blockTokens tokens per block of the view (the prefix-cache model's block size) */
    public PrefixLookup(CacheModel view, long[] hashes, ModelPods model, int blockTokens) {
        this(view, hashes, model, blockTokens, null);
    }

    /**
     * @param reuse a {@link PrefixMatch#reusable()} the lookup refills instead of making a new table; the decision's
     *     match is then valid only until the model's next lookup (held under the model's lock, as a decision is)
     */
    public PrefixLookup(CacheModel view, long[] hashes, ModelPods model, int blockTokens, PrefixMatch reuse) {
        this.view = view;
        this.hashes = hashes;
        this.model = model;
        this.blockTokens = blockTokens;
        this.reuse = reuse;
    }

    /**
     * This lookup's match kept by position ({@code positions}: a pod's position in the model's computing pods, -1 for
     * none), read per pod as an array element; only with a reusable match.
     */
    public PrefixLookup positionedBy(ToIntFunction<Pod> computingPositions) {
        this.positions = computingPositions;
        return this;
    }

    public PrefixMatch match() {
        if (match == null) {
            match = view == null || hashes.length == 0 || model == null ? PrefixMatch.NONE
                    : view.match(hashes, model.computingPods(), blockTokens, reuse, positions);
        }
        return match;
    }
}
