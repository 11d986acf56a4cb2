package io.pdgateway.core.cache;

/**
 * One pod's prefix cache as its model sees it. Modelled (the gateway's own guess, from the requests it routed): the
 * pod's entries in the model's {@link PrefixTree}, a free list in eviction order and an in-use list. Once the pod's
 * engine events have been live: the engine-reported {@link PodCache}, block by block, for good (when the events stop,
 * that cache carries on as the gateway's model, from what the engine last reported). Events that arrive before they
 * are live go to that cache already, so it starts from them. Not thread-safe: its {@link CacheModel} guards it.
 */
final class PodView {
    final String podId;
    final String address;
    /** This view's key in its nodes' entry tables: the model's count of views made before it. */
    final int index;
    int capacityBlocks;
    /** Blocks of the pod's tree entries. */
    int size;
    /**
     * Of {@link #size}, the blocks holds added that the pod has not taken yet (its answer has not come back): they
     * push none of its cached blocks out until it does, since an engine that refuses a prompt evicts nothing for it.
     */
    int pending;
    /** Changes when the view leaves the tree: holds of an earlier generation release nothing. */
    int generation;
    final EntryList free = new EntryList();
    final EntryList inUse = new EntryList();
    /** The engine-reported cache, once an event arrived; null before. */
    PodCache reported;
    /** The reported cache is this pod's view (its events were live once). */
    boolean reportedView;
    /** Set by the model's last candidate lookup: the view's {@link #position} is for that lookup's list. */
    int stamp = -1;
    int position;

    PodView(String podId, String address, int index, int capacityBlocks) {
        this.podId = podId;
        this.address = address;
        this.index = index;
        this.capacityBlocks = Math.max(1, capacityBlocks);
    }

    /** Blocks in this pod's view. */
    int blocks() {
        return reportedView ? reported.size() : size;
    }
}
