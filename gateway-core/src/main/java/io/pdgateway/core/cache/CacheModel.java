package io.pdgateway.core.cache;

import io.pdgateway.core.model.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * The gateway's picture of one model's prefix caches, one {@link PodView} per pod that computes prompts, with the pod's
 * real capacity. Modelled pods (the gateway's own guess) live in one {@link PrefixTree}, updated when a request is
 * routed (its prompt's runs are referenced on the pod that computes them) and when it ends (they become free, most
 * recent first): its work per decision scales with the runs of a prompt rather than its blocks. A pod whose engine's
 * KV events have been live is one of the {@link ReportedCaches} instead, block by block as the events edit them. A pod
 * that leaves discovery is dropped whole. A lookup reads both. Thread-safe: every method holds this model's monitor for
 * in-memory work only.
 */
public final class CacheModel {
    private final Map<String, PodView> pods = new HashMap<>();
    private final PrefixTree tree = new PrefixTree();
    /** Changes whenever a view is added to or removed from {@link #pods}, or a view leaves the tree. */
    private int cachesVersion;
    /** The last {@link #resolve} answer, for that list at that version. */
    private List<Pod> resolvedFor;
    private int resolvedVersion;
    /** Stamps the tree views of the last resolved list ({@link PodView#stamp}). */
    private int resolveStamp;
    /** Each candidate's engine-reported cache when that is its view (null otherwise), aligned with the list. */
    private PodCache[] resolved;
    /** The holder mark of each of {@link #resolved} (0 for none). */
    private long[] resolvedMarks;
    /** How many of {@link #resolved} are not null. */
    private int resolvedCaches;
    private final ReportedCaches reported = new ReportedCaches();
    /** Views made so far, to give the next one its index. */
    private int viewsMade;

    /** How many leading blocks of the prompt each candidate holds ({@code blockTokens} tokens each). */
    public PrefixMatch match(long[] hashes, List<Pod> candidates, int blockTokens) {
        return match(hashes, candidates, blockTokens, null);
    }

    /**
     * As {@link #match(long[], List, int)}, refilling {@code reuse} (a {@link PrefixMatch#reusable()}, or null for a
     * new match) rather than allocating the table.
     */
    public PrefixMatch match(long[] hashes, List<Pod> candidates, int blockTokens, PrefixMatch reuse) {
        return match(hashes, candidates, blockTokens, reuse, null);
    }

    /**
     * As {@link #match(long[], List, int, PrefixMatch)}; with {@code positions} (a pod's position in
     * {@code candidates}, -1 for none) and a {@code reuse}, the match keeps the blocks by candidate position.
     */
    public synchronized PrefixMatch match(long[] hashes, List<Pod> candidates, int blockTokens, PrefixMatch reuse,
            ToIntFunction<Pod> positions) {
        if (hashes.length == 0) {
            return PrefixMatch.NONE;
        }
        int treeHolders = tree.holdersOfFirst(hashes[0]);
        int reportedHolders = reported.holders(hashes[0]);
        if (treeHolders == 0 && reportedHolders == 0) {
            return PrefixMatch.NONE;
        }
        PodCache[] caches = resolve(candidates);
        int upTo = treeHolders + (reportedHolders > 0 ? resolvedCaches : 0);
        PrefixMatch match = reuse == null ? PrefixMatch.forPods(hashes.length, blockTokens, upTo)
                : positions == null ? reuse.refill(hashes.length, blockTokens, upTo)
                : reuse.refill(hashes.length, blockTokens, candidates, positions);
        if (treeHolders > 0) {
            tree.match(hashes, resolveStamp, match);
        }
        if (reportedHolders > 0 && resolvedCaches > 0) {
            reported.walk(hashes, reportedHolders, caches, resolvedMarks, match);
        }
        return match;
    }

    /**
     * The pod now computes (and will cache) the prompt's blocks: they are referenced until {@link #release}. The blocks
     * the pod did not hold count against its capacity, evicting its least recent free ones, once it takes the prompt
     * ({@link #accepted}, or the release): a pod that refuses the prompt evicts nothing for it.
     */
    public synchronized CacheHold hold(Pod pod, long[] hashes, int capacityBlocks) {
        if (hashes.length == 0) {
            return CacheHold.NONE;
        }
        PodView view = viewOf(pod.id(), pod.address(), capacityBlocks);
        if (!view.reportedView) {
            int before = view.size;
            CacheHold hold = tree.hold(view, hashes);
            if (hold != CacheHold.NONE) {
                hold.pending = view.size - before;
                view.pending += hold.pending;
            }
            return hold;
        }
        return reported.hold(view.reported, hashes);
    }

    /**
     * The pod took the request's prompt (it began to answer, or answered its prefill leg): the blocks the hold added
     * count against the pod's capacity now, evicting what overflows as the engine did when it scheduled the prompt.
     * Idempotent; an engine-reported view needs nothing.
     */
    public synchronized void accepted(CacheHold hold) {
        if (hold.pending > 0 && inTree(hold)) {
            settle(hold);
            tree.evictOverflow(hold.view);
        }
    }

    /** The request ended: its blocks stay cached, now free and most recent. Idempotent. */
    public synchronized void release(CacheHold hold) {
        if (hold.released || hold.pod == null && hold.view == null) {
            return;
        }
        hold.released = true;
        if (hold.view != null) {
            if (inTree(hold)) {
                settle(hold);
                tree.release(hold);
                tree.evictOverflow(hold.view);
            }
            return;
        }
        PodView view = pods.get(hold.pod.podId);
        reported.release(hold, view != null && view.reported == hold.pod); // else the pod left (or came back) since
    }

    /**
     * The request's pod refused its prompt before computing any of it (it answered with an error status: engines check
     * a request first): the hold is released, and what it added past the first {@code keepBlocks} blocks (what the pod
     * held when the request was routed) leaves the pod's modelled view, since the engine never stored it; refused
     * before the pod took it, it evicted nothing either. Without this a prompt over the model's context length,
     * refused by every engine, stayed in the view as cached, in place of what the pod does hold, and a client
     * repeating one emptied the view. An engine-reported view needs nothing: its events say what the engine stored.
     */
    public synchronized void refused(CacheHold hold, int keepBlocks) {
        if (!inTree(hold)) { // an engine-reported hold, or its view left the tree
            release(hold);
            return;
        }
        if (!hold.released) {
            hold.released = true;
            settle(hold); // no eviction: its blocks leave instead
            tree.release(hold);
        }
        tree.forget(hold, keepBlocks);
        tree.evictOverflow(hold.view);
    }

    /** Whether the hold's view is still the pod's, in the tree, in the generation the hold was made in. */
    private boolean inTree(CacheHold hold) {
        PodView view = hold.view;
        return view != null && pods.get(view.podId) == view && view.generation == hold.generation;
    }

    /** The hold's added blocks are the pod's now: no longer pending. */
    private static void settle(CacheHold hold) {
        hold.view.pending -= hold.pending;
        hold.pending = 0;
    }

    /**
     * The pod's engine reports it stored these blocks (prefix order): they are its most recent free blocks in the
     * engine-reported cache, which is the pod's view once its events are live.
     */
    public synchronized void stored(String podId, String address, long[] hashes, int capacityBlocks) {
        reported.stored(reportedOf(viewOf(podId, address, capacityBlocks)), hashes);
    }

    /**
     * The pod's engine events are live (its view becomes the event-fed cache, see {@link PodCache}: a modelled pod
     * leaves the tree for good, with what it held there) or stopped (that cache falls back to the gateway's model,
     * starting from what the engine last reported).
     */
    public synchronized void eventsLive(String podId, String address, int capacityBlocks, boolean live) {
        PodView view = live ? viewOf(podId, address, capacityBlocks) : pods.get(podId);
        if (view == null) {
            return;
        }
        if (live && !view.reportedView) {
            tree.drop(view);
            view.reportedView = true;
            cachesVersion++;
        }
        PodCache cache = live ? reportedOf(view) : view.reported;
        if (cache == null || cache.eventFed() == live) {
            return;
        }
        reported.eventsLive(cache, live);
    }

    /** Whether the pod's view follows its engine's events now. */
    public synchronized boolean eventFed(String podId) {
        PodView view = pods.get(podId);
        return view != null && view.reported != null && view.reported.eventFed();
    }

    /** The pod's engine reports it evicted these blocks. */
    public synchronized void removed(String podId, long[] hashes) {
        PodView view = pods.get(podId);
        if (view != null && view.reported != null) {
            reported.removed(view.reported, hashes);
        }
    }

    /** The pod's engine dropped its whole cache. */
    public synchronized void cleared(String podId) {
        PodView view = pods.get(podId);
        if (view != null && view.reported != null) {
            reported.cleared(view.reported);
        }
    }

    /** Sets each known pod's capacity (its engine reported one, or the setting changed). */
    public synchronized void capacity(String podId, int capacityBlocks) {
        PodView view = pods.get(podId);
        int blocks = Math.max(1, capacityBlocks);
        if (view == null || view.capacityBlocks == blocks) {
            return;
        }
        view.capacityBlocks = blocks;
        tree.evictOverflow(view);
        if (view.reported != null) {
            reported.capacity(view.reported, blocks);
        }
    }

    /** Drops every pod not in {@code present} (id → address) or back at another address; returns their ids. */
    public synchronized List<String> retainOnly(Map<String, String> present) {
        List<String> dropped = new ArrayList<>();
        for (Iterator<PodView> it = pods.values().iterator(); it.hasNext(); ) {
            PodView view = it.next();
            if (!view.address.equals(present.get(view.podId))) {
                discard(view);
                it.remove();
                cachesVersion++;
                dropped.add(view.podId);
            }
        }
        return dropped;
    }

    /** Blocks the pod holds in the model (0 when unknown). */
    public synchronized int blocks(String podId) {
        PodView view = pods.get(podId);
        return view == null ? 0 : view.blocks();
    }

    /** Blocks held over every pod (engine reports not yet live included): what the model's memory scales with. */
    public synchronized long totalBlocks() {
        long total = 0;
        for (PodView view : pods.values()) {
            total += view.size + (view.reported == null ? 0 : view.reported.size());
        }
        return total;
    }

    /** Distinct blocks held by at least one pod: in the tree, plus in the engine-reported caches. */
    public synchronized long distinctBlocks() {
        return tree.runBlocks() + reported.distinctBlocks();
    }

    public synchronized boolean hasPod(String podId) {
        return pods.containsKey(podId);
    }

    /**
     * Each candidate's engine-reported cache when that is its view (null otherwise), aligned with the list; the
     * candidates in the tree are stamped with their position instead. Decisions pass the same list (their snapshot's)
     * over and over, so the answer is kept until the list or the set of views changes: a map lookup and an address
     * comparison per pod per decision saved.
     */
    private PodCache[] resolve(List<Pod> candidates) {
        if (candidates == resolvedFor && cachesVersion == resolvedVersion) {
            return resolved;
        }
        int stamp = ++resolveStamp;
        PodCache[] found = new PodCache[candidates.size()];
        long[] marks = new long[found.length];
        int count = 0;
        for (int i = 0; i < found.length; i++) {
            Pod pod = candidates.get(i);
            PodView view = pods.get(pod.id());
            if (view == null || !view.address.equals(pod.address())) {
                continue; // none, or an earlier pod's of the same name
            }
            if (view.reportedView) {
                found[i] = view.reported;
                marks[i] = view.reported.holderMark;
                count++;
            } else {
                view.stamp = stamp;
                view.position = i;
            }
        }
        resolved = found;
        resolvedMarks = marks;
        resolvedCaches = count;
        resolvedFor = candidates;
        resolvedVersion = cachesVersion;
        return found;
    }

    private PodView viewOf(String podId, String address, int capacityBlocks) {
        PodView view = pods.get(podId);
        if (view != null && view.address.equals(address)) {
            return view;
        }
        if (view != null) {
            discard(view); // another pod under the same name: the old one's blocks are not its
        }
        PodView fresh = new PodView(podId, address, viewsMade++, capacityBlocks);
        pods.put(podId, fresh);
        cachesVersion++;
        return fresh;
    }

    private PodCache reportedOf(PodView view) {
        if (view.reported == null) {
            view.reported = reported.create(view.podId, view.address, view.capacityBlocks);
        }
        return view.reported;
    }

    /** The view's blocks leave the model (the pod left, or another took its name). */
    private void discard(PodView view) {
        tree.drop(view);
        if (view.reported != null) {
            reported.discard(view.reported);
        }
    }
}
