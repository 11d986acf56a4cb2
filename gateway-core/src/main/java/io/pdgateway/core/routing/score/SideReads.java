package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.Pod;
import java.util.List;

/**
 * What one decision's stages read of a whole side, kept so the stages after them read it again for free: the prefill
 * side's in-flight counts (fast path, stddev skip, in-flight policies), the decode side's inputs (fast path, cold
 * start, policies) and loads (token_load, predicted_ttft's picker), each for the last list read (by identity), and the
 * lists a stage narrowed a side to, so reads of those are copies of the whole's. Each decision's {@code ClusterLoad}
 * holds one; one thread uses it.
 */
public final class SideReads {
    /** The last decode inputs computed in this decision, and for which list (identity). */
    private List<Pod> decodeInputsPods;
    private DecodeInputs decodeInputs;
    private List<Pod> inFlightPods;
    private double[] inFlightCounts;
    private List<Pod> decodeLoadsPods;
    private DecodeLoads decodeLoads;
    /**
     * Up to two lists a stage narrowed a side to (a scorer's subset: the stddev skip's, the cold start's), each with
     * the list it came from and the flags of what it kept.
     */
    private List<Pod> narrowedA;
    private List<Pod> wholeA;
    private boolean[] keepA;
    private List<Pod> narrowedB;
    private List<Pod> wholeB;
    private boolean[] keepB;

    /** The in-flight prefill counts read earlier in this decision for exactly this list, or null. */
    public double[] inFlightCounts(List<Pod> pods) {
        return pods == inFlightPods ? inFlightCounts : null;
    }

    /** Keeps the counts of this list for the rest of the decision. */
    public void inFlightCounts(List<Pod> pods, double[] counts) {
        inFlightPods = pods;
        inFlightCounts = counts;
    }

    /** The decode loads read earlier in this decision for exactly this list, or null. */
    public DecodeLoads decodeLoads(List<Pod> pods) {
        return pods == decodeLoadsPods ? decodeLoads : null;
    }

    /** Keeps the loads of this list for the rest of the decision. */
    public void decodeLoads(List<Pod> pods, DecodeLoads loads) {
        decodeLoadsPods = pods;
        decodeLoads = loads;
    }

    /** The decode inputs computed earlier in this decision for exactly this list, or null. */
    public DecodeInputs decodeInputs(List<Pod> pods) {
        return pods == decodeInputsPods ? decodeInputs : null;
    }

    /** Keeps the inputs of this list for the rest of the decision. */
    public void decodeInputs(List<Pod> pods, DecodeInputs inputs) {
        decodeInputsPods = pods;
        decodeInputs = inputs;
    }

    /**
     * A stage scores {@code kept}: the pods of {@code whole} whose {@code keep} flag is set, in order. Per-side reads
     * this decision made of the whole (in-flight counts, decode inputs) are then narrowed by copying instead of read
     * again pod by pod. The flags must stay as they are for the rest of the decision; reads kept for an earlier filling
     * of {@code kept} (a reused list) are forgotten.
     */
    public void narrowed(List<Pod> kept, List<Pod> whole, boolean[] keep) {
        if (narrowedA == null || narrowedA == kept) {
            narrowedA = kept;
            wholeA = whole;
            keepA = keep;
        } else {
            narrowedB = kept;
            wholeB = whole;
            keepB = keep;
        }
        if (decodeInputsPods == kept) {
            decodeInputsPods = null;
            decodeInputs = null;
        }
        if (inFlightPods == kept) {
            inFlightPods = null;
            inFlightCounts = null;
        }
        if (decodeLoadsPods == kept) {
            decodeLoadsPods = null;
            decodeLoads = null;
        }
    }

    /** The list {@code kept} was narrowed from in this decision ({@link #narrowed}), or null. */
    public List<Pod> narrowedFrom(List<Pod> kept) {
        return kept == narrowedA ? wholeA : kept == narrowedB ? wholeB : null;
    }

    /** Which positions of {@link #narrowedFrom} {@code kept} holds, or null. */
    public boolean[] narrowedKeep(List<Pod> kept) {
        return kept == narrowedA ? keepA : kept == narrowedB ? keepB : null;
    }
}
