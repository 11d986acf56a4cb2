package io.pdgateway.sim.vllm;

import io.pdgateway.sim.PromptTokens;
import io.pdgateway.sim.api.PodContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A prefill pod's finished KV, held for a decode pod to fetch, keyed by its first block id. The held blocks count
 * against the pod's KV capacity until they leave: fetched, or given up after vLLM's abort timeout.
 * Lives on the pod's event loop.
 */
final class VllmKvStore {

    /**
     * vLLM frees a finished prefill's blocks when no decode reads them within VLLM_NIXL_ABORT_REQUEST_TIMEOUT,
     * 480 s by default (vllm/envs.py). A protocol timeout: scaled, with a floor (EngineLoop#protocolTimeoutWallMillis).
     */
    static final double ABORT_TIMEOUT_MILLIS = 480_000;

    /** KV of one prompt: its blocks, its token count and the digest of the prompt it was computed for. */
    record Held(List<Integer> blockIds, int tokens, String promptDigest) {
    }

    private record Entry(Held held, int blocks, long expiryTimer) {
    }

    private final PodContext pod;
    private final Map<Integer, Entry> byFirstBlock = new HashMap<>();
    private int nextBlockId;

    VllmKvStore(PodContext pod) {
        this.pod = pod;
    }

    /** Keeps the KV of a finished prefill: ceil(tokens / block size) fresh block ids. */
    Held hold(PromptTokens prompt) {
        int blocks = pod.kvPool().blocksFor(prompt.count());
        List<Integer> ids = new ArrayList<>(blocks);
        for (int i = 0; i < blocks; i++) {
            ids.add(nextBlockId++);
        }
        Held held = new Held(List.copyOf(ids), prompt.count(), prompt.digest());
        pod.kvPool().forceReserve(blocks);
        long expiry = pod.vertx().setTimer(pod.loop().protocolTimeoutWallMillis(ABORT_TIMEOUT_MILLIS),
                id -> expire(held.blockIds().get(0)));
        byFirstBlock.put(held.blockIds().get(0), new Entry(held, blocks, expiry));
        return held;
    }

    /** Removes the KV for transfer, or null when none is held under that block (fetched already, or expired). */
    Held take(int firstBlockId) {
        Entry entry = byFirstBlock.remove(firstBlockId);
        if (entry == null) {
            return null;
        }
        pod.vertx().cancelTimer(entry.expiryTimer());
        return entry.held();
    }

    /** Frees the blocks of KV taken for transfer, once the transfer is over. */
    void release(Held held) {
        pod.kvPool().release(pod.kvPool().blocksFor(held.tokens()));
        pod.loop().capacityFreed();
    }

    private void expire(int firstBlockId) {
        Entry entry = byFirstBlock.remove(firstBlockId);
        if (entry != null) {
            pod.kvPool().release(entry.blocks());
            pod.loop().capacityFreed();
        }
    }
}
