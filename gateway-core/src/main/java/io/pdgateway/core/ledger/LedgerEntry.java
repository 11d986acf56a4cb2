package io.pdgateway.core.ledger;

/**
 * A ledger's per-pod counters as a model's {@link LedgerRows} copy them: after every change of its counters the ledger
 * calls {@link #changed}, which marks the entry's slot in the rows that copied it, so their next decision copies it
 * again. Until rows have copied the entry it reports nowhere: the rows read it whole when they install it.
 */
abstract class LedgerEntry {
    private volatile ChangedSlots.Mark mark;

    /** Call after the counters changed, never before: the rows clear the mark before they copy. */
    final void changed() {
        ChangedSlots.Mark reportTo = mark;
        if (reportTo != null) {
            reportTo.set();
        }
    }

    /** Call before copying the counters: a change after the copy then marks the slot. */
    final void reportTo(ChangedSlots.Mark slotMark) {
        mark = slotMark;
    }
}
