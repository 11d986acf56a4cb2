package io.pdgateway.core.cache;

import io.pdgateway.core.model.Pod;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * How much of one prompt each pod holds in its prefix cache: the number of leading blocks, and the match percentage
 * the spec's formulas read. Only pods that hold at least the first block are stored (a small open-addressing table
 * keyed by pod id), so a lookup of any other pod is a miss. A match whose lookup was given the candidates' positions
 * (a pod's place in the list looked up, found without hashing: {@code PodSlots}) keeps the blocks in an array by
 * position instead, so reading a pod's match is an array element, not a string hash and compare per pod. A match is
 * read-only once made, except a model's {@link #reusable()} one, which each lookup of that model's decisions refills
 * (under the model's lock).
 */
public final class PrefixMatch {
    /** No prompt blocks, or nothing cached: every pod matches 0 %. */
    public static final PrefixMatch NONE = new PrefixMatch(0, 0, new String[1], new int[1]);

    private int promptBlocks;
    private int blockTokens;
    private String[] podIds;
    private int[] blocks;
    private int mask;
    /** Pod → its position in {@link #candidates}, or -1; null when the match is kept by pod id. */
    private ToIntFunction<Pod> positions;
    private List<Pod> candidates;
    /** Matched blocks by candidate position (only the first candidates.size() are this match's). */
    private int[] byPosition = new int[0];

    private PrefixMatch(int promptBlocks, int blockTokens, String[] podIds, int[] blocks) {
        this.promptBlocks = promptBlocks;
        this.blockTokens = blockTokens;
        this.podIds = podIds;
        this.blocks = blocks;
        this.mask = podIds.length - 1;
    }

    /** A table for up to {@code pods} matching pods. */
    static PrefixMatch forPods(int promptBlocks, int blockTokens, int pods) {
        int capacity = capacity(pods);
        return new PrefixMatch(promptBlocks, blockTokens, new String[capacity], new int[capacity]);
    }

    /**
     * An empty match to be refilled by each lookup of one model's decisions, instead of a new table per decision
     * (two arrays of twice the matching pods). Whoever holds it reads it only until the next lookup.
     */
    public static PrefixMatch reusable() {
        return new PrefixMatch(0, 0, new String[2], new int[2]);
    }

    /** This reusable match emptied for a new prompt and up to {@code pods} matching pods. */
    PrefixMatch refill(int promptBlocks, int blockTokens, int pods) {
        int capacity = capacity(pods);
        if (podIds.length < capacity) {
            podIds = new String[capacity];
            blocks = new int[capacity];
            mask = capacity - 1;
        } else {
            Arrays.fill(podIds, null);
        }
        this.promptBlocks = promptBlocks;
        this.blockTokens = blockTokens;
        this.positions = null;
        this.candidates = null;
        return this;
    }

    /**
     * This reusable match emptied for a new prompt over {@code pods} (the list looked up), kept by position: a pod's
     * blocks are at its position as {@code positionOf} finds it.
     */
    PrefixMatch refill(int promptBlocks, int blockTokens, List<Pod> pods, ToIntFunction<Pod> positionOf) {
        if (byPosition.length < pods.size()) {
            byPosition = new int[pods.size()];
        } else {
            Arrays.fill(byPosition, 0, pods.size(), 0);
        }
        this.promptBlocks = promptBlocks;
        this.blockTokens = blockTokens;
        this.positions = positionOf;
        this.candidates = pods;
        return this;
    }

    private static int capacity(int pods) {
        return Integer.highestOneBit(Math.max(2, pods * 2 - 1)) << 1;
    }

    /**
     * The candidate at {@code position} (pod {@code podId}) holds {@code matchedBlocks} leading blocks; a later put
     * for it replaces the earlier. A match kept by position does not read the id: a walk drops thousands of pods at
     * once.
     */
    void put(int position, String podId, int matchedBlocks) {
        if (positions != null) {
            byPosition[position] = matchedBlocks;
        } else {
            put(podId, matchedBlocks);
        }
    }

    private void put(String podId, int matchedBlocks) {
        int slot = podId.hashCode() & mask;
        while (podIds[slot] != null && !podIds[slot].equals(podId)) {
            slot = (slot + 1) & mask;
        }
        podIds[slot] = podId;
        blocks[slot] = matchedBlocks;
    }

    /** Whether this match is kept by the positions {@code positionOf} gives (then {@link #blocksAt} reads them). */
    public boolean keptBy(ToIntFunction<Pod> positionOf) {
        return positions != null && positions == positionOf;
    }

    /** {@link #blocks} of the pod at {@code position} of a match {@link #keptBy} positions (-1: none, 0 blocks). */
    public int blocksAt(int position) {
        return promptBlocks == 0 || position < 0 ? 0 : byPosition[position];
    }

    /** Leading prompt blocks the pod holds. */
    public int blocks(Pod pod) {
        if (promptBlocks == 0) {
            return 0;
        }
        if (positions != null) {
            int position = positions.applyAsInt(pod);
            return position >= 0 ? byPosition[position] : byId(pod);
        }
        String id = pod.id();
        int slot = id.hashCode() & mask;
        while (podIds[slot] != null) {
            if (podIds[slot].equals(id)) {
                return blocks[slot];
            }
            slot = (slot + 1) & mask;
        }
        return 0;
    }

    /** A pod not found by position (another snapshot's object of the same pod): the candidate with its id, if any. */
    private int byId(Pod pod) {
        for (int i = 0; i < candidates.size(); i++) {
            if (candidates.get(i).id().equals(pod.id())) {
                return byPosition[i];
            }
        }
        return 0;
    }

    /** The spec's prefix_match_percent: the share of the prompt's full blocks the pod holds, 0..100, rounded down. */
    public int percent(Pod pod) {
        return promptBlocks == 0 ? 0 : (int) (blocks(pod) * 100L / promptBlocks);
    }

    /** Tokens per block of the view this match came from. */
    public int blockTokens() {
        return blockTokens;
    }

    /** The prompt tokens a pod holding {@code blocks} leading blocks has cached: all the blocks', within the prompt. */
    public long cachedTokens(long blocks, long promptTokens) {
        return cachedTokens(blocks, blockTokens, promptTokens);
    }

    /** {@link #cachedTokens(long, long)} with {@code blockTokens} tokens a block. */
    public static long cachedTokens(long blocks, long blockTokens, long promptTokens) {
        return Math.min(promptTokens, blocks * blockTokens);
    }

    public int promptBlocks() {
        return promptBlocks;
    }
}
