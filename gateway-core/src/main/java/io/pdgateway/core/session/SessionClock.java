package io.pdgateway.core.session;

/**
 * The routing session's only source of time: monotonic nanoseconds for ages and intervals, and wall-clock milliseconds
 * where another replica's timestamps are compared. The server passes the system clock, the routing simulator its
 * virtual one, so both age charges, expire sessions and run the janitor at the same instants for the same inputs.
 */
public interface SessionClock {
    long nanoTime();

    long epochMillis();

    /** The machine's clocks. */
    SessionClock SYSTEM = new SessionClock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public long epochMillis() {
            return System.currentTimeMillis();
        }
    };
}
