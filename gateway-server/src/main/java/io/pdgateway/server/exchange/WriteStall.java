package io.pdgateway.server.exchange;

import io.vertx.core.Vertx;

/**
 * The slow-client rule: once the client's write queue is full, it has {@code limitSeconds} to drain it before
 * {@code tooSlow} runs. Each stall is timed on its own; a client that reads again resets it. On the exchange's event
 * loop only.
 */
final class WriteStall {
    private static final long OFF = -1;

    private final Vertx vertx;
    private final double limitSeconds;
    private final Runnable tooSlow;
    private long timer = OFF;

    WriteStall(Vertx vertx, double limitSeconds, Runnable tooSlow) {
        this.vertx = vertx;
        this.limitSeconds = limitSeconds;
        this.tooSlow = tooSlow;
    }

    /** The client's queue is full: start counting, unless already counting. */
    void begin() {
        if (timer == OFF) {
            timer = vertx.setTimer(LegAborter.millis(limitSeconds), id -> {
                timer = OFF;
                tooSlow.run();
            });
        }
    }

    /** The client read again. */
    void end() {
        if (timer != OFF) {
            vertx.cancelTimer(timer);
            timer = OFF;
        }
    }

    void stop() {
        end();
    }
}
