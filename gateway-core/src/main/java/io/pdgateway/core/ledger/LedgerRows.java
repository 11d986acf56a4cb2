package io.pdgateway.core.ledger;

import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodSlots;
import java.util.function.Function;

/**
 * One model's ledger entries in arrays indexed by the pods' slots in its snapshot ({@link PodSlots}): what a decision
 * reads per pod without a map lookup by pod id. The arrays hold the very counter objects the ledgers keep (and leases
 * release into), so they are a cache of the maps' lookups, not a second count: they are refilled when the snapshot,
 * a ledger's entry of some pod (a pod dropped or re-created) or the other replicas' load changed since the last
 * decision; after only new entries (pods' first charges) only the empty rows are looked up. Reads of a pod outside the
 * snapshot fall back to the maps.
 *
 * <p>Not thread-safe: one per model, used under the model's lock ({@code ModelLane}).
 */
public final class LedgerRows {
    private PodSlots slots;
    private PodCounters[] counters;
    private long countersVersion;
    private long countersAdditions;
    private TokenLedger.PodTokens[] tokens;
    private long tokensVersion;
    private long tokensAdditions;
    private RemoteLoad remote;
    private RemoteLoad.PodLoad[] remoteRows;

    /** Brings the rows up to date for a decision over {@code model}; returns this. */
    public LedgerRows refresh(ModelPods model, RequestLedger requests, TokenLedger tokenLedger, RemoteLoad others) {
        boolean newSnapshot = slots == null || slots.model() != model;
        if (newSnapshot) {
            slots = new PodSlots(model);
            counters = new PodCounters[slots.size()];
            tokens = new TokenLedger.PodTokens[slots.size()];
            remoteRows = new RemoteLoad.PodLoad[slots.size()];
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
     * last fill), only the rows that had none: the others still hold the same entries.
     */
    private static <E> void fill(E[] rows, ModelPods model, Function<Pod, E> entry, boolean onlyEmpty) {
        for (int s = 0; s < rows.length; s++) {
            if (!onlyEmpty || rows[s] == null) {
                rows[s] = entry.apply(model.pods().get(s));
            }
        }
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
        PodCounters c = counters[slot];
        return c == null ? 0 : c.prefills;
    }

    public int runningRequests(int slot) {
        PodCounters c = counters[slot];
        return c == null ? 0 : c.running;
    }

    public int pendingDecodes(int slot) {
        PodCounters c = counters[slot];
        return c == null ? 0 : c.pending;
    }

    /** {@link RequestLedger#hasRunningCounter}. */
    public boolean hasCounters(int slot) {
        return counters[slot] != null;
    }

    public long activeTokens(int slot) {
        TokenLedger.PodTokens t = tokens[slot];
        return t == null ? 0 : t.active;
    }

    public long kvTokens(int slot) {
        TokenLedger.PodTokens t = tokens[slot];
        return t == null ? 0 : t.kv;
    }

    public long decodeTokens(int slot) {
        TokenLedger.PodTokens t = tokens[slot];
        return t == null ? 0 : t.decode;
    }

    /** {@link TokenLedger#decodeAgeSeconds}. */
    public double decodeAgeSeconds(int slot, long nowNanos) {
        TokenLedger.PodTokens t = tokens[slot];
        return t == null ? 0 : TokenLedger.ageSeconds(t, nowNanos);
    }

    /** What the other replicas hold on the pod, or null. */
    public RemoteLoad.PodLoad remote(int slot) {
        return remoteRows[slot];
    }
}
