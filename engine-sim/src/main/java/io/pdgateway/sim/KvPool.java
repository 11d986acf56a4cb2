package io.pdgateway.sim;

/**
 * The pod's KV cache as a count of blocks. Running sequences reserve their prompt plus their whole completion
 * when admitted (so the simulator never has to preempt; vLLM allocates block by block and preempts instead),
 * and a prefill pod's finished requests keep their prompt blocks until a decode pod fetches them.
 * Lives on the pod's event loop.
 */
public final class KvPool {

    private final int blockSize;
    private final int capacityBlocks;
    private int usedBlocks;

    public KvPool(int capacityTokens, int blockSize) {
        this.blockSize = blockSize;
        this.capacityBlocks = Math.max(1, capacityTokens / blockSize);
    }

    public int blocksFor(int tokens) {
        return (tokens + blockSize - 1) / blockSize;
    }

    /** Reserves when the blocks fit; the scheduler leaves the request waiting otherwise. */
    boolean tryReserve(int blocks) {
        if (usedBlocks + blocks > capacityBlocks) {
            return false;
        }
        usedBlocks += blocks;
        return true;
    }

    /** Reserves even past capacity: KV that already exists (a finished prefill) cannot be refused. */
    public void forceReserve(int blocks) {
        usedBlocks += blocks;
    }

    public void release(int blocks) {
        usedBlocks = Math.max(0, usedBlocks - blocks);
    }

    public int capacityTokens() {
        return capacityBlocks * blockSize;
    }

    /** Tokens' worth of blocks in use. */
    public int usedTokens() {
        return usedBlocks * blockSize;
    }

    /** Share of the blocks in use, 0..1 (vLLM's kv_cache_usage_perc). */
    public double usage() {
        return Math.min(1.0, (double) usedBlocks / capacityBlocks);
    }
}
