package io.pdgateway.core.ledger;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;

/**
 * Completions per second per pod over about a minute (upstream's realtime_running_requests_drain_rate_1m), from the
 * request ledger's completion counts. Time is passed in, never read, so the tracker is deterministic under test.
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
    private final Deque<Snapshot> snapshots = new ArrayDeque<>();

    private record Snapshot(long nanos, Map<String, Long> counts) {}

    DrainRateTracker(RequestLedger ledger) {
        this.ledger = ledger;
    }

    /** Takes a snapshot when the last one is old enough; call it every few seconds. */
    public synchronized void tick(long nowNanos) {
        Snapshot last = snapshots.peekLast();
        if (last != null && nowNanos - last.nanos() < SNAPSHOT_EVERY_NANOS) {
            return;
        }
        snapshots.addLast(new Snapshot(nowNanos, ledger.completions()));
        while (!snapshots.isEmpty() && nowNanos - snapshots.peekFirst().nanos() > KEEP_NANOS) {
            snapshots.removeFirst();
        }
    }

    /** Completions per second of the pod over up to the last minute; 0 with less than 10 s of history. */
    public synchronized double rate(String podId, long nowNanos) {
        for (Iterator<Snapshot> it = snapshots.iterator(); it.hasNext(); ) {
            Snapshot snapshot = it.next();
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
        for (Snapshot snapshot : snapshots) {
            snapshot.counts().keySet().removeAll(dropped);
        }
    }
}
