package io.pdgateway.core.session;

/** A session clock tests move by hand. */
final class ManualClock implements SessionClock {
    private long nanos;

    @Override
    public long nanoTime() {
        return nanos;
    }

    @Override
    public long epochMillis() {
        return nanos / 1_000_000;
    }

    void advanceSeconds(double seconds) {
        nanos += (long) (seconds * 1e9);
    }
}
