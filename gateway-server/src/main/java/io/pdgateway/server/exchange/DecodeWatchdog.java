package io.pdgateway.server.exchange;

import io.pdgateway.core.config.PdKnobs;
import io.vertx.core.Vertx;
import java.util.function.Consumer;

/**
 * The decode watchdog (spec, "SGLang Decode Watchdog"): once the prefill succeeded the decode pod owes the client an
 * answer, so a stream gets {@code decodeFirstResponseTimeout} for its first body chunk and then at most
 * {@code decodeStreamIdleTimeout} between two chunks, and a non-streaming request {@code decodeResponseTimeout} for its
 * whole answer. 0 disables a timer. The first-response timer counts from the prefill's success for every schedule
 * (SGLang's concurrent legs included): before that, the prefill's own timeout bounds the wait. It guards every
 * engine's decode leg, not only SGLang's: a hung vLLM or TensorRT-LLM decode must not hang the client either.
 * Runs on the exchange's event loop.
 */
final class DecodeWatchdog {
    private static final long OFF = -1;

    private final Vertx vertx;
    private final PdKnobs knobs;
    private final boolean streaming;
    private final Consumer<String> alarm;
    private long timer = OFF;
    private boolean firstChunkSeen;
    private boolean stopped;

    /** @param alarm told why, once, when a bound is exceeded */
    DecodeWatchdog(Vertx vertx, PdKnobs knobs, boolean streaming, Consumer<String> alarm) {
        this.vertx = vertx;
        this.knobs = knobs;
        this.streaming = streaming;
        this.alarm = alarm;
    }

    /** The prefill succeeded: from now on the decode pod owes the answer. */
    void prefillSucceeded() {
        if (stopped) {
            return;
        }
        if (!streaming) {
            arm(knobs.decodeResponseTimeout(), "the decode pod did not answer within %s s of the prefill's success");
        } else if (!firstChunkSeen) { // a stream that already flows is watched by the idle bound
            arm(knobs.decodeFirstResponseTimeout(), "the decode pod sent no token within %s s of the prefill's success");
        }
    }

    /** A body chunk of the decode's answer arrived. */
    void chunk() {
        if (stopped) {
            return;
        }
        firstChunkSeen = true;
        if (streaming) {
            arm(knobs.decodeStreamIdleTimeout(), "the decode pod's stream stalled for %s s");
        }
    }

    /** The answer ended, or the request did: no alarm any more. */
    void stop() {
        stopped = true;
        cancel();
    }

    private void arm(double seconds, String why) {
        cancel();
        if (seconds <= 0) {
            return;
        }
        String reason = String.format(why, formatSeconds(seconds));
        timer = vertx.setTimer(LegAborter.millis(seconds), id -> {
            timer = OFF;
            if (!stopped) {
                stopped = true;
                alarm.accept(reason);
            }
        });
    }

    private void cancel() {
        if (timer != OFF) {
            vertx.cancelTimer(timer);
            timer = OFF;
        }
    }

    private static String formatSeconds(double seconds) {
        return seconds == Math.rint(seconds) ? Long.toString((long) seconds) : Double.toString(seconds);
    }
}
