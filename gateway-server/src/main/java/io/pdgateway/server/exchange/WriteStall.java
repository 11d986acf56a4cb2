package io.pdgateway.server.exchange;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpServerResponse;
import java.util.function.BooleanSupplier;

/**
 * The slow-client rule: once the client's write queue is full, the pod's answer pauses (the queue stays bounded), the
 * pod's timers stop (its silence is the client's doing), and the client has {@code limitSeconds}
 * (PD_GATEWAY_CLIENT_WRITE_STALL_TIMEOUT) to drain it before {@code tooSlow} runs and the request ends as client_slow,
 * never blamed on the pod. Each stall is timed on its own; a client that reads again resets it. On the exchange's
 * event loop only.
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

    /**
     * The client's queue is full: pause the pod's answer, hold the pod's timers and start counting; when the client
     * drains its queue (and the attempt is not {@code over}), all three are undone.
     */
    void stalled(HttpServerResponse client, HttpClientResponse podAnswer, LegWatchdog watchdog, BooleanSupplier over) {
        podAnswer.pause();
        if (watchdog != null) {
            watchdog.clientStalled();
        }
        begin();
        client.drainHandler(v -> {
            if (over.getAsBoolean()) {
                return;
            }
            end();
            if (watchdog != null) {
                watchdog.clientDrained();
            }
            podAnswer.resume();
        });
    }

    /** Start counting, unless already counting. */
    private void begin() {
        if (timer == OFF) {
            timer = vertx.setTimer(LegAborter.millis(limitSeconds), id -> {
                timer = OFF;
                tooSlow.run();
            });
        }
    }

    /** The client read again. */
    private void end() {
        if (timer != OFF) {
            vertx.cancelTimer(timer);
            timer = OFF;
        }
    }

    void stop() {
        end();
    }
}
