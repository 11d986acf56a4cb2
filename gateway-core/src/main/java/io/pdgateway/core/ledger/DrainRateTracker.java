package io.pdgateway.core.ledger;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Completions per second per pod over about a minute (upstream's realtime_running_requests_drain_rate_1m), from the
 * gateway's own completion counts. Time is passed in, never read, so the tracker is deterministic under test.
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

    private final Map<String, LongAdder> completions = new ConcurrentHashMap<>();
    private final Deque<Snapshot> snapshots = new ArrayDeque<>();

    private record Snapshot(long nanos, Map<String, Long> counts) {}

    public void completed(String podId) {
        completions.computeIfAbsent(podId, k -> new LongAdder()).increment();
    }

    /** Takes a snapshot when the last one is old enough; call it every few seconds. */
    public synchronized void tick(long nowNanos) {
        Snapshot last = snapshots.peekLast();
        if (last != null && nowNanos - last.nanos() < SNAPSHOT_EVERY_NANOS) {
            return;
        }
        Map<String, Long> counts = new HashMap<>();
        completions.forEach((id, adder) -> counts.put(id, adder.sum()));
        snapshots.addLast(new Snapshot(nowNanos, counts));
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
            LongAdder now = completions.get(podId);
            long current = now == null ? 0 : now.sum();
            long then = snapshot.counts().getOrDefault(podId, 0L);
            return (current - then) / (age / 1e9);
        }
        return 0;
    }

    /** Forgets a pod (the janitor calls this for pods gone from discovery). */
    public void forget(String podId) {
        completions.remove(podId);
    }
}
