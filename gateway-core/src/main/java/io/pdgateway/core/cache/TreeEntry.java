package io.pdgateway.core.cache;

/**
 * One pod's part of one {@link RunNode}: the run's first {@link #depth} blocks are in the pod's cache, referenced by
 * {@link #refs} routed requests. A referenced entry is on its view's in-use list, a free one on its eviction order;
 * every block of an entry moves together (a hold takes whole runs: the tree is split where a prompt ends or departs),
 * so an entry's place in that order is each of its blocks' place in the engine's block-by-block LRU. Not thread-safe.
 */
final class TreeEntry {
    final PodView view;
    RunNode node;
    /** Read freely; once the entry is in its node's table, written only through {@link #depth(int)}. */
    int depth;
    int refs;
    /** The serial of the last hold that referenced the entry (see {@link PrefixTree#forget}). */
    int lastHold;
    /** Links in the view's list (free or in use). */
    TreeEntry prev;
    TreeEntry next;

    TreeEntry(PodView view, RunNode node) {
        this.view = view;
        this.node = node;
    }

    /** Sets the depth of an entry in its node's table, and the table's copy of it. */
    void depth(int blocks) {
        depth = blocks;
        node.depthChanged(this);
    }
}
