package io.pdgateway.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A leg's request body as slices of byte arrays, sent in order: long runs of the client's bytes where the gateway kept
 * them, small arrays where it edited them ({@link TopLevelJson#toLegBody}). A 200 KB prompt reaches each pod without
 * being copied into a new array per leg first. Immutable: no array is written once it is a slice (the client's body
 * is never changed anywhere).
 */
public final class LegBody {
    /** Runs shorter than this are copied into the small array between long slices, not sliced. */
    static final int MIN_SLICE = 256;

    private final byte[][] arrays;
    private final int[] offsets;
    private final int[] lengths;
    private final int length;

    private LegBody(byte[][] arrays, int[] offsets, int[] lengths, int length) {
        this.arrays = arrays;
        this.offsets = offsets;
        this.lengths = lengths;
        this.length = length;
    }

    /** The whole array as one slice. */
    public static LegBody of(byte[] bytes) {
        return new LegBody(new byte[][] {bytes}, new int[] {0}, new int[] {bytes.length}, bytes.length);
    }

    /** The body's length in bytes. */
    public int length() {
        return length;
    }

    public int slices() {
        return arrays.length;
    }

    /** Slice i's array: read only, and only its range ({@link #offset}, {@link #length(int)}) is the body's. */
    public byte[] array(int i) {
        return arrays[i];
    }

    public int offset(int i) {
        return offsets[i];
    }

    public int length(int i) {
        return lengths[i];
    }

    /** The body in one array, for callers that need it whole (an Envoy body mutation, a test). */
    public byte[] toBytes() {
        if (arrays.length == 1 && offsets[0] == 0 && lengths[0] == arrays[0].length) {
            return arrays[0];
        }
        byte[] out = new byte[length];
        for (int i = 0, at = 0; i < arrays.length; at += lengths[i], i++) {
            System.arraycopy(arrays[i], offsets[i], out, at, lengths[i]);
        }
        return out;
    }

    /** Collects slices: long runs referenced where they lie, short runs and single bytes copied together. */
    static final class Builder {
        private final List<byte[]> arrays = new ArrayList<>();
        private final List<int[]> ranges = new ArrayList<>();
        private byte[] small = new byte[64];
        private int smallLength;
        private int length;

        void put(byte b) {
            if (smallLength == small.length) {
                small = Arrays.copyOf(small, small.length * 2);
            }
            small[smallLength++] = b;
            length++;
        }

        void copy(byte[] from, int offset, int count) {
            if (count < MIN_SLICE) {
                if (smallLength + count > small.length) {
                    small = Arrays.copyOf(small, Math.max(small.length * 2, smallLength + count));
                }
                System.arraycopy(from, offset, small, smallLength, count);
                smallLength += count;
                length += count;
                return;
            }
            flushSmall();
            arrays.add(from);
            ranges.add(new int[] {offset, count});
            length += count;
        }

        private void flushSmall() {
            if (smallLength > 0) {
                arrays.add(Arrays.copyOf(small, smallLength));
                ranges.add(new int[] {0, smallLength});
                smallLength = 0;
            }
        }

        LegBody build() {
            flushSmall();
            int n = arrays.size();
            int[] offsets = new int[n];
            int[] lengths = new int[n];
            for (int i = 0; i < n; i++) {
                offsets[i] = ranges.get(i)[0];
                lengths[i] = ranges.get(i)[1];
            }
            return new LegBody(arrays.toArray(new byte[0][]), offsets, lengths, length);
        }
    }
}
