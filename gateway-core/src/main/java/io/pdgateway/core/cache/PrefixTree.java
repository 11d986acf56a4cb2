package io.pdgateway.core.cache;

import java.util.Arrays;

/**
 * The modelled pods' prefix caches of one model as one radix tree of block runs ({@link RunNode}), each with the pods
 * that hold it and how far ({@link TreeEntry}). Prompts that share a prefix share its nodes, so the tree holds each
 * distinct block once however many pods cache it, and the work of a routing decision scales with the runs of its
 * prompt, not with its blocks: a lookup compares the prompt along its path (a run's last hash settles it, block hashes
 * being chained) and reads the entries of the few nodes on it; a hold references one entry per node; an eviction trims
 * the least recent free entry from its deep end. A conversation's new turn is one new run.
 *
 * <p>What this models is the engine's block-by-block LRU exactly: a hold takes whole runs (a node is split where a
 * prompt ends or departs from it), a request's entries are freed deepest first, and a split puts the deeper part just
 * before the other in the pod's order, so every block of an entry sits where the engine's order would put it and the
 * least recent free entry is always a leaf of its pod's part of the tree (the cache stays prefix-closed). Not
 * thread-safe: its {@link CacheModel} guards it.
 */
final class PrefixTree {
    private final NodeIndex<RunNode> starts = new NodeIndex<>(1024);
    /** Blocks in the tree's runs: each distinct block once, whichever pods hold it. */
    private long runBlocks;
    /** The last walk's path: its nodes, where each starts in the prompt, and how many of its blocks the prompt has. */
    private RunNode[] path = new RunNode[16];
    private int[] pathFrom = new int[16];
    private int[] pathMatched = new int[16];
    /** The last hold's number. */
    private int holds;

    /**
     * Pods that hold at least the first block of a prompt starting with the hash (0: none, so no modelled pod matches
     * the prompt): an upper bound of a match's. A run in the tree has at least one entry.
     */
    int holdersOfFirst(long hash) {
        RunNode node = starts.get(hash);
        return node != null && node.parent == null ? node.entryCount() : 0;
    }

    long runBlocks() {
        return runBlocks;
    }

    /**
     * Puts each looked-up pod's leading blocks of the prompt into the match: the views stamped {@code stamp}, at their
     * {@link PodView#position}. A pod's deepest entry on the path says how far it holds the prompt.
     */
    void match(long[] hashes, int stamp, PrefixMatch match) {
        int nodes = walk(hashes);
        for (int j = 0; j < nodes; j++) {
            int from = pathFrom[j];
            int matched = pathMatched[j];
            PodView[] views = path[j].views(); // not the entries: see RunNode
            int[] depths = path[j].depths();
            for (int k = 0; k < views.length; k++) {
                PodView view = views[k];
                if (view != null && view.stamp == stamp) {
                    match.put(view.position, view.podId, from + Math.min(depths[k], matched));
                }
            }
        }
        Arrays.fill(path, 0, nodes, null); // no node outlives its last entry through here
    }

    /** Follows the prompt down the tree into {@link #path}; returns the nodes on it. */
    private int walk(long[] hashes) {
        int nodes = 0;
        int pos = 0;
        RunNode parent = null;
        while (pos < hashes.length) {
            RunNode node = starts.get(hashes[pos]);
            if (node == null || node.parent != parent) {
                break; // nothing cached past here (or the hash starts a run elsewhere: a collision)
            }
            int matched = Runs.matched(node.hashes, hashes, pos);
            if (nodes == path.length) {
                path = Arrays.copyOf(path, nodes * 2);
                pathFrom = Arrays.copyOf(pathFrom, nodes * 2);
                pathMatched = Arrays.copyOf(pathMatched, nodes * 2);
            }
            path[nodes] = node;
            pathFrom[nodes] = pos;
            pathMatched[nodes++] = matched;
            if (matched < node.length()) {
                break;
            }
            pos += matched;
            parent = node;
        }
        return nodes;
    }

    /**
     * The pod computes the prompt: each run on its path gets (or extends) the pod's entry, referenced until
     * {@link #release}; the tree grows a run where the prompt goes on past what is cached, and splits one where the
     * prompt ends or departs inside it. The caller evicts what overflows.
     */
    CacheHold hold(PodView view, long[] hashes) {
        int serial = ++holds;
        int nodes = walk(hashes);
        RunNode parent = null;
        int pos = 0;
        for (int j = 0; j < nodes; j++) {
            RunNode node = path[j];
            if (pathMatched[j] < node.length()) { // only the last node on a path: the prompt ends or departs in it
                node = split(node, pathMatched[j]);
            }
            reference(view, node, serial);
            pos += node.length();
            parent = node;
        }
        Arrays.fill(path, 0, nodes, null);
        // The rest of the prompt is a new run, unless its first hash starts a run elsewhere (a collision): then the
        // hold stops where the walk did.
        if (pos < hashes.length && starts.get(hashes[pos]) == null) {
            RunNode node = new RunNode(Arrays.copyOfRange(hashes, pos, hashes.length), parent);
            starts.put(hashes[pos], node);
            runBlocks += node.length();
            reference(view, node, serial);
            parent = node;
        }
        return parent == null ? CacheHold.NONE : new CacheHold(view, parent, serial);
    }

    private static void reference(PodView view, RunNode node, int serial) {
        TreeEntry e = node.entry(view);
        if (e == null) {
            e = new TreeEntry(view, node);
            node.put(e);
            view.inUse.append(e);
        } else if (e.refs == 0) {
            view.free.unlink(e);
            view.inUse.append(e);
        }
        view.size += node.length() - e.depth;
        e.depth(node.length());
        e.refs++;
        e.lastHold = serial;
    }

    /** The request ended: its entries, deepest first, become the pod's most recent free ones if no other uses them. */
    void release(CacheHold hold) {
        PodView view = hold.view;
        for (RunNode node = hold.leaf; node != null; node = node.parent) {
            TreeEntry e = node.entry(view);
            if (e != null && e.refs > 0 && --e.refs == 0) {
                view.inUse.unlink(e);
                view.free.append(e);
            }
        }
    }

    /**
     * The released hold's pod refused the prompt before computing it (it answered with an error status): the blocks
     * past its first {@code keepBlocks} (what the pod held when the request was routed) leave the pod's view, deepest
     * first, as far as no other hold has referenced them since. One that has is some request's prefix now, and so is
     * everything above it.
     */
    void forget(CacheHold hold, int keepBlocks) {
        PodView view = hold.view;
        int end = 0;
        for (RunNode node = hold.leaf; node != null; node = node.parent) {
            end += node.length();
        }
        for (RunNode node = hold.leaf; node != null && end > keepBlocks; node = node.parent) {
            int start = end - node.length();
            end = start;
            TreeEntry e = node.entry(view);
            if (e == null || e.refs > 0 || e.lastHold != hold.serial) {
                return;
            }
            int keep = Math.max(0, keepBlocks - start);
            if (e.depth > keep) {
                view.size -= e.depth - keep;
                e.depth(keep);
                if (keep == 0) {
                    view.free.unlink(e);
                    leave(e);
                }
            }
        }
    }

    /**
     * Trims the pod's least recent free entries, from their deep end, until it is within its capacity, not counting the
     * blocks it has not taken yet ({@link PodView#pending}).
     */
    void evictOverflow(PodView view) {
        while (view.size - view.pending > view.capacityBlocks && view.free.head != null) {
            TreeEntry e = view.free.head;
            int trim = Math.min(e.depth, view.size - view.pending - view.capacityBlocks);
            e.depth(e.depth - trim);
            view.size -= trim;
            if (e.depth == 0) {
                view.free.unlink(e);
                leave(e);
            }
        }
    }

    /** Every entry of the pod goes (it left, or its engine's events say what it holds now); its holds release none. */
    void drop(PodView view) {
        for (TreeEntry e = view.free.head; e != null; e = e.next) {
            leave(e);
        }
        for (TreeEntry e = view.inUse.head; e != null; e = e.next) {
            leave(e);
        }
        view.free.head = view.free.tail = null;
        view.inUse.head = view.inUse.tail = null;
        view.size = 0;
        view.pending = 0;
        view.generation++;
    }

    /** The entry leaves its node, and a node no pod holds leaves the tree (none holds its children either). */
    private void leave(TreeEntry e) {
        e.node.remove(e);
        leaveIfUnheld(e.node);
    }

    private void leaveIfUnheld(RunNode node) {
        if (node.entryCount() == 0) {
            starts.remove(node.hashes[0]);
            runBlocks -= node.length();
        }
    }

    /**
     * Splits the node after its first {@code k} blocks into a new upper node and itself (the rest), returns the upper
     * one. Each pod's entry goes to the upper node and, if it held past k, a new entry holds the rest, one step older
     * in the pod's order (a prefix is always at least as recent as what follows it).
     */
    private RunNode split(RunNode lower, int k) {
        long[] all = lower.hashes;
        RunNode upper = new RunNode(Arrays.copyOf(all, k), lower.parent);
        lower.hashes = Arrays.copyOfRange(all, k, all.length);
        lower.parent = upper;
        starts.put(all[0], upper);
        starts.put(all[k], lower);
        for (TreeEntry e : lower.takeAll()) {
            if (e == null) {
                continue;
            }
            if (e.depth > k) {
                TreeEntry deeper = new TreeEntry(e.view, lower);
                deeper.depth = e.depth - k;
                deeper.refs = e.refs;
                deeper.lastHold = e.lastHold;
                (e.refs > 0 ? e.view.inUse : e.view.free).insertBefore(e, deeper);
                lower.put(deeper);
                e.depth = k; // in no table now: upper.put takes it
            }
            e.node = upper;
            upper.put(e);
        }
        leaveIfUnheld(lower); // a tail no pod holds any more
        return upper;
    }
}
