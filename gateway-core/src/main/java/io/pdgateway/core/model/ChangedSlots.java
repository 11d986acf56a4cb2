package io.pdgateway.core.model;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.IntConsumer;

/**
 * Which slots of a model's rows ({@code LedgerRows}, {@code PrefillRows}, {@link MetricsRows}) had their entry change
 * since the rows last looked: one bit per slot, set by whichever thread changed the entry (one atomic OR, no
 * allocation, no lock), read and cleared by the model's next decision, which copies only those slots' entries into its
 * arrays instead of reading every pod's entry again. With thousands of pods those entries lie wherever the heap put
 * them, so reading each one a decision was a cache miss a pod and entry (a sixth of a decision at 4,096 pods for the
 * ledgers alone); the arrays are read in order.
 *
 * <p>A bit set for nothing only costs a copy that finds the same values, so a stale {@link Mark} (an entry dropped
 * from the rows, or one from an earlier snapshot's slots) is harmless; a change is never missed, because a writer
 * changes the entry before it sets the bit and the reader clears the bit before it copies the entry.
 */
public final class ChangedSlots {
    private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] words;
    private final Mark[] marks;

    public ChangedSlots(int slots) {
        words = new long[(slots + 63) >>> 6];
        marks = new Mark[slots];
        for (int s = 0; s < slots; s++) {
            marks[s] = new Mark(this, s);
        }
    }

    /** What an entry filling this slot reports its changes to. */
    public Mark mark(int slot) {
        return marks[slot];
    }

    /**
     * Has the entry (null for none) that now fills the slot report its changes to it; returns the entry. Call before
     * copying the entry: a change after the copy then marks the slot.
     */
    public <E extends RowEntry> E watch(E entry, int slot) {
        if (entry != null) {
            entry.reportTo(marks[slot]);
        }
        return entry;
    }

    /** Clears each slot changed since the last call, then hands it to {@code copy}. */
    public void drain(IntConsumer copy) {
        for (int w = 0; w < words.length; w++) {
            if ((long) WORDS.getVolatile(words, w) == 0) {
                continue;
            }
            long bits = (long) WORDS.getAndSet(words, w, 0L);
            while (bits != 0) {
                copy.accept((w << 6) + Long.numberOfTrailingZeros(bits));
                bits &= bits - 1;
            }
        }
    }

    /** One slot's bit, held by the entries that fill the slot. */
    public static final class Mark {
        private final ChangedSlots owner;
        private final int slot;

        private Mark(ChangedSlots owner, int slot) {
            this.owner = owner;
            this.slot = slot;
        }

        public void set() {
            WORDS.getAndBitwiseOr(owner.words, slot >>> 6, 1L << slot);
        }
    }
}
