package io.pdgateway.server.kvevents;

import io.pdgateway.core.cache.BlockHasher;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Re-keys one pod's engine blocks to the gateway's {@link BlockHasher} blocks of
 * {@link BlockHasher#DEFAULT_BLOCK_TOKENS} tokens, by content: an engine's hashes are seeded per process (vLLM) or
 * not chained at all (older SGLang), so only the token ids in {@code BlockStored} can make both sides agree.
 *
 * <p>For every engine block it has seen it keeps where the block ends in gateway terms: the gateway hash of the last
 * full 16-token block at or before its end, the tokens after that boundary (fewer than 16), and the gateway blocks this
 * engine block completed. That resolves a later {@code parent_block_hash} (the next block continues from there) and a
 * {@code BlockRemoved} (the gateway blocks it completed go too), for any engine block size: 16 maps one to one, 32 to
 * two, SGLang's page size 1 completes a gateway block every sixteenth page. Engines evict the tail of a sequence first,
 * so dropping the gateway blocks an evicted engine block completed keeps the view exact in practice.
 *
 * <p>Bounded: at most {@code maxBlocks} engine blocks, least recently used first out. The gateway blocks of an entry
 * pushed out are handed to {@code forgotten} so the caller removes them from the view too: a block whose removal could
 * no longer be translated must not linger there (the view stays an under-estimate, never an over-estimate). About 150
 * bytes per entry with 16-token blocks, so the default bound costs about 10 MB for a pod whose cache is full.
 *
 * <p>Not thread-safe: one pod's events are applied in order by one thread.
 */
public final class BlockRekeyer {
    private static final int GATEWAY_BLOCK = BlockHasher.DEFAULT_BLOCK_TOKENS;
    private static final int[] NO_TOKENS = new int[0];
    private static final long[] NO_BLOCKS = new long[0];

    /** Where an engine block ends, in gateway terms. */
    private record Position(long gatewayParent, int[] pending, long[] completed) {}

    /** Why a stored event could not be re-keyed. */
    public enum Failure {
        /** The parent is an engine block this pod's history does not hold (joined late, or pushed out). */
        UNRESOLVED_PARENT,
        /** The token ids do not split into the stated number of blocks. */
        BAD_SHAPE
    }

    /** The outcome of {@link #store}: the gateway blocks to mark stored (possibly none), or why none could be. */
    public record Stored(long[] gatewayHashes, Failure failure) {}

    private final String model;
    private final int maxBlocks;
    private final Consumer<long[]> forgotten;
    private final LinkedHashMap<Long, Position> positions;

    public BlockRekeyer(String model, int maxBlocks, Consumer<long[]> forgotten) {
        if (maxBlocks < 1) {
            throw new IllegalArgumentException("maxBlocks must be positive, got " + maxBlocks);
        }
        this.model = model;
        this.maxBlocks = maxBlocks;
        this.forgotten = forgotten;
        this.positions = new LinkedHashMap<>(16, 0.75f, true);
    }

    /** Re-keys a stored event; remembers its engine blocks for later parents and removals. */
    public Stored store(BlockStored event) {
        long[] engineHashes = event.blockHashes();
        int[] tokens = event.tokenIds();
        int blocks = engineHashes.length;
        if (blocks == 0) {
            return new Stored(NO_BLOCKS, null);
        }
        int perBlock = event.blockSize();
        if (perBlock <= 0 || (long) perBlock * blocks != tokens.length) {
            // SGLang's bigram pages and vLLM's first layout state the size differently; the token count decides.
            if (tokens.length == 0 || tokens.length % blocks != 0) {
                return new Stored(null, Failure.BAD_SHAPE);
            }
            perBlock = tokens.length / blocks;
        }
        Position at;
        if (event.parentBlockHash() == null) {
            String chain = event.loraName() != null ? event.loraName() : model;
            at = new Position(BlockHasher.seed(chain), NO_TOKENS, NO_BLOCKS);
        } else {
            at = positions.get(event.parentBlockHash());
            if (at == null) {
                return new Stored(null, Failure.UNRESOLVED_PARENT);
            }
        }
        long[] out = new long[(at.pending().length + tokens.length) / GATEWAY_BLOCK];
        int emitted = 0;
        for (int b = 0; b < blocks; b++) {
            int[] window = Arrays.copyOf(at.pending(), at.pending().length + perBlock);
            System.arraycopy(tokens, b * perBlock, window, at.pending().length, perBlock);
            int full = window.length / GATEWAY_BLOCK;
            long[] completed = full == 0 ? NO_BLOCKS : new long[full];
            long parent = at.gatewayParent();
            for (int g = 0; g < full; g++) {
                parent = BlockHasher.next(parent, window, g * GATEWAY_BLOCK, GATEWAY_BLOCK);
                completed[g] = parent;
                out[emitted++] = parent;
            }
            int rest = window.length - full * GATEWAY_BLOCK;
            int[] pending = rest == 0 ? NO_TOKENS : Arrays.copyOfRange(window, full * GATEWAY_BLOCK, window.length);
            at = new Position(parent, pending, completed);
            positions.put(engineHashes[b], at);
        }
        trim();
        return new Stored(emitted == out.length ? out : Arrays.copyOf(out, emitted), null);
    }

    /** The gateway blocks the given engine blocks completed; engine blocks it does not know are ignored. */
    public long[] remove(long[] engineHashes) {
        long[] out = NO_BLOCKS;
        int n = 0;
        for (long h : engineHashes) {
            Position p = positions.remove(h);
            if (p != null && p.completed().length > 0) {
                if (n + p.completed().length > out.length) {
                    out = Arrays.copyOf(out, Math.max(2 * out.length, n + p.completed().length));
                }
                System.arraycopy(p.completed(), 0, out, n, p.completed().length);
                n += p.completed().length;
            }
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    /** Forgets every engine block (the engine cleared its cache, or restarted). */
    public void clear() {
        positions.clear();
    }

    /** Engine blocks remembered now. */
    public int size() {
        return positions.size();
    }

    private void trim() {
        Iterator<Map.Entry<Long, Position>> it = positions.entrySet().iterator();
        while (positions.size() > maxBlocks && it.hasNext()) {
            long[] completed = it.next().getValue().completed();
            it.remove();
            if (completed.length > 0) {
                forgotten.accept(completed);
            }
        }
    }
}
