package io.pdgateway.core.model;

/**
 * A per-pod entry (a ledger's counters, a prefill pod's queue, a pod's last scrape) as a model's rows copy it by slot:
 * after every change its owner calls {@link #changed}, which marks the entry's slot in the rows that copied it
 * ({@link ChangedSlots}), so their next decision copies it again. Until rows have copied the entry it reports nowhere:
 * rows read an entry whole when they install it.
 */
public abstract class RowEntry {
    private volatile ChangedSlots.Mark mark;

    /** Call after the entry changed, never before: the rows clear the mark before they copy. */
    public final void changed() {
        ChangedSlots.Mark reportTo = mark;
        if (reportTo != null) {
            reportTo.set();
        }
    }

    /** Whether the entry reports its changes to this slot mark. */
    public final boolean reportsTo(ChangedSlots.Mark slotMark) {
        return mark == slotMark;
    }

    /** Call before copying the entry: a change after the copy then marks the slot. */
    final void reportTo(ChangedSlots.Mark slotMark) {
        mark = slotMark;
    }
}
