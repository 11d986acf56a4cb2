package io.pdgateway.routingsim.engine;

import io.pdgateway.core.cache.PodCacheEvents;
import io.pdgateway.routingsim.event.EventQueue;
import java.util.Arrays;
import java.util.List;

/**
 * One simulated engine's KV-cache events on their way to the gateway replicas: the blocks its prefix cache stored and
 * evicted during a step, in order, delivered as one batch {@code delayNanos} after the step to each replica's cache
 * views through {@link PodCacheEvents} — the interface the server's event subscriber feeds. The engines' block hashes
 * are the workload's, which are also what the gateway hashes prompts to, so no re-keying is needed here (the server
 * re-keys by token ids). Lives on the run's single thread.
 */
public final class KvEventFeed implements PrefixBlockCache.Changes {
    private final String podId;
    private final EventQueue queue;
    private final long delayNanos;
    private final List<? extends PodCacheEvents> gateways;
    private long[] hashes = new long[64];
    private boolean[] storedFlags = new boolean[64];
    private int count;

    public KvEventFeed(String podId, EventQueue queue, long delayNanos, List<? extends PodCacheEvents> gateways) {
        this.podId = podId;
        this.queue = queue;
        this.delayNanos = delayNanos;
        this.gateways = List.copyOf(gateways);
    }

    @Override
    public void stored(long blockHash) {
        add(blockHash, true);
    }

    @Override
    public void evicted(long blockHash) {
        add(blockHash, false);
    }

    /** Sends the step's changes as one batch. */
    public void publish() {
        if (count == 0) {
            return;
        }
        long[] batch = Arrays.copyOf(hashes, count);
        boolean[] stored = Arrays.copyOf(storedFlags, count);
        count = 0;
        queue.after(delayNanos, now -> deliver(batch, stored));
    }

    /** Runs of stores and evictions in the order they happened (a block may be stored and evicted in one step). */
    private void deliver(long[] batch, boolean[] stored) {
        int start = 0;
        for (int i = 1; i <= batch.length; i++) {
            if (i == batch.length || stored[i] != stored[start]) {
                long[] run = Arrays.copyOfRange(batch, start, i);
                for (PodCacheEvents gateway : gateways) {
                    if (stored[start]) {
                        gateway.stored(podId, run);
                    } else {
                        gateway.removed(podId, run);
                    }
                }
                start = i;
            }
        }
    }

    private void add(long hash, boolean stored) {
        if (count == hashes.length) {
            hashes = Arrays.copyOf(hashes, count * 2);
            storedFlags = Arrays.copyOf(storedFlags, count * 2);
        }
        hashes[count] = hash;
        storedFlags[count++] = stored;
    }
}
