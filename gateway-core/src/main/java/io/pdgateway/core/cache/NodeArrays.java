package io.pdgateway.core.cache;

/**
 * Node arrays of released cache holds, kept for the model's next holds. An 8k-token prompt's hold is 500 node numbers,
 * and a fresh array for each is 2 KB of memory the CPU has not seen (32 cache lines fetched before they are written),
 * where a recently released one is still in cache. Arrays are a power of two long (a hold uses its first blocks);
 * a few are kept per size, up to 64K blocks, so what waits here stays a few MB at most. Not thread-safe: its
 * {@link CacheModel} guards it.
 */
final class NodeArrays {
    private static final int PER_SIZE = 8;
    /** Sizes up to 2^16 node numbers (a 1M-token prompt at 16-token blocks) are kept. */
    private static final int SIZES = 17;

    private final int[][][] spare = new int[SIZES][PER_SIZE][];
    private final int[] spares = new int[SIZES];

    /** An array of at least {@code length} node numbers, its contents undefined. */
    int[] take(int length) {
        int size = sizeOf(length);
        if (size < SIZES && spares[size] > 0) {
            int n = --spares[size];
            int[] array = spare[size][n];
            spare[size][n] = null;
            return array;
        }
        return new int[1 << Math.min(size, 30)];
    }

    /** The array of a released hold, for another hold: no one reads it after this. */
    void give(int[] array) {
        int size = sizeOf(array.length);
        if (size < SIZES && array.length == 1 << size && spares[size] < PER_SIZE) {
            spare[size][spares[size]++] = array;
        }
    }

    /** The power of two at least {@code length}, as its exponent. */
    private static int sizeOf(int length) {
        return length <= 1 ? 0 : Integer.SIZE - Integer.numberOfLeadingZeros(length - 1);
    }
}
