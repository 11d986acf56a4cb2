package io.pdgateway.core.ledger;

import io.pdgateway.core.model.ChangedSlots;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodSlots;
import io.pdgateway.core.model.RowEntry;
import java.util.function.Function;
import java.util.function.IntConsumer;

/**
 * One model's ledger entries in arrays indexed by the pods' slots in its snapshot ({@link PodSlots}): what a decision
 * reads per pod without a map lookup by pod id. The entry arrays hold the very counter objects the ledgers keep (and
 * leases release into), refilled when the snapshot, a ledger's entry of some pod (a pod dropped or re-created) or the
 * other replicas' load changed since the last decision; after only new entries (pods' first charges) only the empty
 * rows are looked up. The counters a decision reads are copied from those entries into arrays of numbers, each copy
 * brought up to date at the next decision after its entry changed ({@link ChangedSlots}): with thousands of pods,
 * reading each pod's entry wherever it lies in the heap cost a cache miss per pod and counter object, a sixth of a
 * decision at 4,096 pods. Reads of a pod outside the snapshot fall back to the maps.
 *
 * <p>Not thread-safe: one per model, used under the model's lock ({@code ModelLane}); the ledgers' writers only set
 * bits in {@link ChangedSlots}.
 */
public final class LedgerRows {
    private PodSlots slots;
    private ChangedSlots changed;
    private PodCounters[] counters;
    private long countersVersion;
    private long countersAdditions;
    private TokenLedger.PodTokens[] tokens;
    private long tokensVersion;
    private long tokensAdditions;
    private RemoteLoad remote;
    private RemoteLoad.PodLoad[] remoteRows;
    // The counters of the entries above, by slot, as of this decision (zero where a slot has no entry).
    private int[] prefills;
    private int[] running;
    private int[] pending;
    private long[] active;
    private long[] kv;
    private long[] decode;
    private long[] decodeRequests;
    private long[] decodeRoutedAtSum;
    private final IntConsumer copy = this::copy;

    /** Brings the rows up to date for a decision over {@code model}; returns this. */
    public LedgerRows refresh(ModelPods model, RequestLedger requests, TokenLedger tokenLedger, RemoteLoad others) {
        boolean newSnapshot = slots == null || slots.model() != model;
        if (newSnapshot) {
            slots = new PodSlots(model);
            int n = slots.size();
            if (counters == null || counters.length != n) {
                // Else reused: a new snapshot refills every row below, and a mark left from the last one only recopies.
                changed = new ChangedSlots(n);
                counters = new PodCounters[n];
                tokens = new TokenLedger.PodTokens[n];
                remoteRows = new RemoteLoad.PodLoad[n];
                prefills = new int[n];
                running = new int[n];
                pending = new int[n];
                active = new long[n];
                kv = new long[n];
                decode = new long[n];
                decodeRequests = new long[n];
                decodeRoutedAtSum = new long[n];
            }
        }
        // Read the versions before the entries: an entry changed meanwhile leaves a newer version for the next decision.
        long version = requests.version();
        long added = requests.additions();
        if (newSnapshot || version != countersVersion || added != countersAdditions) {
            fill(counters, model, requests::entry, !newSnapshot && version == countersVersion);
            countersVersion = version;
            countersAdditions = added;
        }
        version = tokenLedger.version();
        added = tokenLedger.additions();
        if (newSnapshot || version != tokensVersion || added != tokensAdditions) {
            fill(tokens, model, tokenLedger::entry, !newSnapshot && version == tokensVersion);
            tokensVersion = version;
            tokensAdditions = added;
        }
        changed.drain(copy);
        if (newSnapshot || others != remote) {
            remote = others;
            for (int s = 0; s < remoteRows.length; s++) {
                remoteRows[s] = others.isEmpty() ? null : others.pod(model.pods().get(s).id());
            }
        }
        return this;
    }

    /**
     * Each row from the ledger's entry for its pod; with {@code onlyEmpty} (the ledger only gained entries since the
     * last fill), only the rows that had none: the others still hold the same entries. A row filled anew reports its
     * entry's changes to the slot and copies its counters.
     */
    private <E extends RowEntry> void fill(E[] rows, ModelPods model, Function<Pod, E> entry, boolean onlyEmpty) {
        for (int s = 0; s < rows.length; s++) {
            if (!onlyEmpty || rows[s] == null) {
                rows[s] = changed.watch(entry.apply(model.pods().get(s)), s);
                copy(s);
            }
        }
    }

    /** The slot's counters from its entries, zero where it has none. */
    private void copy(int s) {
        PodCounters c = counters[s];
        prefills[s] = c == null ? 0 : c.prefills;
        running[s] = c == null ? 0 : c.running;
        pending[s] = c == null ? 0 : c.pending;
        TokenLedger.PodTokens t = tokens[s];
        active[s] = t == null ? 0 : t.active;
        kv[s] = t == null ? 0 : t.kv;
        decode[s] = t == null ? 0 : t.decode;
        decodeRequests[s] = t == null ? 0 : t.decodeRequests;
        decodeRoutedAtSum[s] = t == null ? 0 : t.decodeRoutedAtSum;
    }

    /** The slots of the snapshot of the last refresh. */
    public PodSlots slots() {
        return slots;
    }

    /** The pod's slot in the snapshot of the last refresh, or -1 (then read the maps). */
    public int slot(Pod pod) {
        return slots.slot(pod);
    }

    public int inFlightPrefills(int slot) {
        return prefills[slot];
    }

    public int runningRequests(int slot) {
        return running[slot];
    }

    public int pendingDecodes(int slot) {
        return pending[slot];
    }

    /** {@link RequestLedger#hasRunningCounter}. */
    public boolean hasCounters(int slot) {
        return counters[slot] != null;
    }

    public long activeTokens(int slot) {
        return active[slot];
    }

    public long kvTokens(int slot) {
        return kv[slot];
    }

    public long decodeTokens(int slot) {
        return decode[slot];
    }

    /** {@link TokenLedger#decodeAgeSeconds}: Σ (now − routed_at) over the pod's decode requests, in seconds. */
    public double decodeAgeSeconds(int slot, long nowNanos) {
        return TokenLedger.ageSeconds(decodeRequests[slot], decodeRoutedAtSum[slot], nowNanos);
    }

    /** What the other replicas hold on the pod, or null. */
    public RemoteLoad.PodLoad remote(int slot) {
        return remoteRows[slot];
    }
}
