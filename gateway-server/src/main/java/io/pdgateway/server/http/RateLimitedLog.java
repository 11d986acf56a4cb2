package io.pdgateway.server.http;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * A log line for an event that a client can make happen as often as it likes: the first occurrence is logged, then
 * at most one line per interval saying how many happened since. Counting is lock-free; any thread may call.
 */
public final class RateLimitedLog {
    private final Logger log;
    private final String what;
    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private final AtomicLong unlogged = new AtomicLong();
    private final AtomicLong nextLineAt;

    /** @param what the event, as the line names it ("HTTP/2 streams reset by clients") */
    public RateLimitedLog(Logger log, String what, long intervalNanos, LongSupplier nanoClock) {
        this.log = log;
        this.what = what;
        this.intervalNanos = intervalNanos;
        this.nanoClock = nanoClock;
        this.nextLineAt = new AtomicLong(nanoClock.getAsLong());
    }

    /** One more occurrence; logs a line at warn level if none was logged within the interval. */
    public void note() {
        note(null);
    }

    /**
     * One more occurrence, described (not client-chosen text: the line quotes it); the line, when one is due, quotes
     * this occurrence's description as the latest.
     */
    public void note(String latest) {
        unlogged.incrementAndGet();
        long now = nanoClock.getAsLong();
        long due = nextLineAt.get();
        if (now - due >= 0 && nextLineAt.compareAndSet(due, now + intervalNanos)) {
            log.warn("{}: {} since the last such line (at most one every {} s){}", what, unlogged.getAndSet(0),
                    intervalNanos / 1_000_000_000L, latest == null ? "" : "; the latest: " + latest);
        }
    }
}
