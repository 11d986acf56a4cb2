package io.pdgateway.core.ledger;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Completions per second per pod over about a minute (upstream's realtime_running_requests_drain_rate_1m), from the
 * request ledger's completion counts. Time is passed in, never read, so the tracker is deterministic under test.
 *
 * <p>Decisions read a rate per decode pod, so reads take no lock: the snapshots are an immutable list replaced as a
 * whole every few seconds (copy on write), and decisions for different models never wait on each other here.
 */
public final class DrainRateTracker {
    /** Reference §4: snapshots at least 5 s apart... */
    static final long SNAPSHOT_EVERY_NANOS = 5_000_000_000L;
    /** ...kept for 3 minutes... */
    static final long KEEP_NANOS = 180_000_000_000L;
    /** ...the rate spans about one minute... */
    static final long WINDOW_NANOS = 60_000_000_000L;
    /** ...and needs at least 10 s of history. */
    static final long MIN_HISTORY_NANOS = 10_000_000_000L;

    private final RequestLedger ledger;
    /** Oldest first. Replaced, never changed in place. */
    private volatile List<Snapshot> snapshots = List.of();

    private record Snapshot(long nanos, Map<String, Long> counts) {}

    DrainRateTracker(RequestLedger ledger) {
        this.ledger = ledger;
    }

    /** Takes a snapshot when the last one is old enough; call it every few seconds. */
    public synchronized void tick(long nowNanos) {
        List<Snapshot> current = snapshots;
        Snapshot last = current.isEmpty() ? null : current.get(current.size() - 1);
        if (last != null && nowNanos - last.nanos() < SNAPSHOT_EVERY_NANOS) {
            return;
        }
        List<Snapshot> next = new ArrayList<>(current);
        next.add(new Snapshot(nowNanos, Map.copyOf(ledger.completions())));
        while (!next.isEmpty() && nowNanos - next.get(0).nanos() > KEEP_NANOS) {
            next.remove(0);
        }
        snapshots = List.copyOf(next);
    }

    /** Completions per second of the pod over up to the last minute; 0 with less than 10 s of history. */
    public double rate(String podId, long nowNanos) {
        List<Snapshot> current = snapshots;
        for (int i = 0; i < current.size(); i++) {
            Snapshot snapshot = current.get(i);
            long age = nowNanos - snapshot.nanos();
            if (age > WINDOW_NANOS) {
                continue;
            }
            if (age < MIN_HISTORY_NANOS) {
                return 0;
            }
            // A pod without counters at the snapshot had completed nothing by then.
            long then = snapshot.counts().getOrDefault(podId, 0L);
            return Math.max(0, ledger.completions(podId) - then) / (age / 1e9);
        }
        return 0;
    }

    /** Forgets the history of pods that were dropped. */
    synchronized void forget(Collection<String> dropped) {
        List<Snapshot> next = new ArrayList<>(snapshots.size());
        for (Snapshot snapshot : snapshots) {
            Map<String, Long> counts = new HashMap<>(snapshot.counts());
            counts.keySet().removeAll(dropped);
            next.add(new Snapshot(snapshot.nanos(), Map.copyOf(counts)));
        }
        snapshots = List.copyOf(next);
    }
}
