package io.pdgateway.core.cache;

/**
 * A run of consecutive prompt blocks in a model's {@link PrefixTree}: the blocks every prompt through this node shares
 * after its parent's, and the pods that hold some or all of them ({@link TreeEntry}, at most one per pod). A pod's
 * entries are kept in a small open-addressing table keyed by the pod view's index, so finding a pod's entry is a probe
 * or two even on a system prompt's node that every pod of the model holds. Not thread-safe: its {@link CacheModel}
 * guards it.
 */
final class RunNode {
    /** The run's block hashes; its length is the run's. */
    long[] hashes;
    /** The node before this run on every path through it; null for a run that starts at a prompt's first block. */
    RunNode parent;
    private TreeEntry[] slots = new TreeEntry[2];
    // Beside each slot's entry, its pod's view and depth: a lookup reads these arrays in order instead of each entry
    // where the heap put it (a system prompt's node holds an entry for every pod of the model).
    private PodView[] views = new PodView[2];
    private int[] depths = new int[2];
    private int entries;

    RunNode(long[] hashes, RunNode parent) {
        this.hashes = hashes;
        this.parent = parent;
    }

    int length() {
        return hashes.length;
    }

    /** Pods with an entry here. */
    int entryCount() {
        return entries;
    }

    /** The entry table itself, to read every entry (empty slots are null). */
    TreeEntry[] slots() {
        return slots;
    }

    /** Each slot's entry's view (null where the slot is empty), in the table's order. */
    PodView[] views() {
        return views;
    }

    /** Each slot's entry's depth, where {@link #views} has a view. */
    int[] depths() {
        return depths;
    }

    /** The entry, which is in this table, changed its depth. */
    void depthChanged(TreeEntry entry) {
        int mask = slots.length - 1;
        for (int slot = entry.view.index & mask; slots[slot] != null; slot = (slot + 1) & mask) {
            if (slots[slot] == entry) {
                depths[slot] = entry.depth;
                return;
            }
        }
    }

    /** The pod's entry, or null. */
    TreeEntry entry(PodView view) {
        int mask = slots.length - 1;
        for (int slot = view.index & mask; ; slot = (slot + 1) & mask) {
            TreeEntry e = slots[slot];
            if (e == null || e.view == view) {
                return e;
            }
        }
    }

    /** Adds the entry of a pod that has none here. */
    void put(TreeEntry entry) {
        if (entries + 1 > slots.length / 2) {
            resize(slots.length * 2);
        }
        place(entry);
        entries++;
    }

    private void resize(int length) {
        TreeEntry[] old = slots;
        slots = new TreeEntry[length];
        views = new PodView[length];
        depths = new int[length];
        for (TreeEntry e : old) {
            if (e != null) {
                place(e);
            }
        }
    }

    private void place(TreeEntry entry) {
        int mask = slots.length - 1;
        int slot = entry.view.index & mask;
        while (slots[slot] != null) {
            slot = (slot + 1) & mask;
        }
        slots[slot] = entry;
        views[slot] = entry.view;
        depths[slot] = entry.depth;
    }

    /** Removes the entry (backward-shift deletion, as {@link HashSlots} does). */
    void remove(TreeEntry entry) {
        int mask = slots.length - 1;
        int hole = entry.view.index & mask;
        while (slots[hole] != entry) {
            hole = (hole + 1) & mask;
        }
        for (int next = (hole + 1) & mask; slots[next] != null; next = (next + 1) & mask) {
            if (HashSlots.fillsHole(slots[next].view.index & mask, hole, next)) {
                slots[hole] = slots[next];
                views[hole] = views[next];
                depths[hole] = depths[next];
                hole = next;
            }
        }
        slots[hole] = null;
        views[hole] = null;
        entries--;
        if (slots.length > 16 && entries < slots.length / 8) {
            resize(slots.length / 2); // a lookup reads every slot: a run most pods left must not stay wide
        }
    }

    /** Empties the table and returns what it held (null slots included), for a split to hand the entries on. */
    TreeEntry[] takeAll() {
        TreeEntry[] taken = slots;
        slots = new TreeEntry[taken.length];
        views = new PodView[taken.length];
        depths = new int[taken.length];
        entries = 0;
        return taken;
    }
}
