package io.pdgateway.core.cache;

/**
 * The blocks one routed request references on one pod, from routing until the request ends: while held they cannot
 * be evicted (the engine is using them). {@link CacheModel#release} frees them into the pod's LRU order; releasing
 * twice, or after the pod left, does nothing.
 */
public final class CacheHold {
    static final CacheHold NONE = new CacheHold(null, new int[0], 0);

    final PodCache pod;
    /**
     * The blocks' nodes, the first {@link #blocks} of the array: they stay this hold's until released (see
     * {@link PodCache}'s orphaned nodes); then the array goes back to its model for another hold.
     */
    final int[] nodes;
    final int blocks;
    boolean released;

    CacheHold(PodCache pod, int[] nodes, int blocks) {
        this.pod = pod;
        this.nodes = nodes;
        this.blocks = blocks;
    }
}
