package io.pdgateway.core.cache;

/**
 * The blocks one routed request references on one pod, from routing until the request ends: while held they cannot
 * be evicted (the engine is using them). {@link CacheModel#release} frees them into the pod's LRU order; releasing
 * twice, or after the pod left, does nothing.
 */
public final class CacheHold {
    static final CacheHold NONE = new CacheHold(null, new int[0], 0);

    /** The engine-reported cache held, or null for a hold in the model's tree. */
    final PodCache pod;
    /**
     * The blocks' nodes in {@link #pod}, the first {@link #blocks} of the array: they stay this hold's until released
     * (see {@link PodCache}'s orphaned nodes); then the array goes back to its model for another hold.
     */
    final int[] nodes;
    final int blocks;
    /** The modelled view held, or null. */
    final PodView view;
    /** The deepest run held: the hold is the path from the tree's root to it. */
    final RunNode leaf;
    /** The view's generation when held: a view that left the tree since releases nothing. */
    final int generation;
    /** The tree's number for this hold, kept by every entry it referenced until another hold references it. */
    final int serial;
    /** The blocks this hold added to its view that its pod has not taken yet: {@link PodView#pending}'s share. */
    int pending;
    boolean released;

    CacheHold(PodCache pod, int[] nodes, int blocks) {
        this.pod = pod;
        this.nodes = nodes;
        this.blocks = blocks;
        this.view = null;
        this.leaf = null;
        this.generation = 0;
        this.serial = 0;
    }

    CacheHold(PodView view, RunNode leaf, int serial) {
        this.pod = null;
        this.nodes = null;
        this.blocks = 0;
        this.view = view;
        this.leaf = leaf;
        this.generation = view.generation;
        this.serial = serial;
    }
}
