package io.pdgateway.server.exchange;

import io.pdgateway.core.config.PdKnobs;
import io.pdgateway.core.config.UpstreamSettings;
import io.vertx.core.Vertx;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Bounds the leg that answers the client: a stream gets a limit for its first body chunk and then for the gap between
 * two chunks, a non-streaming answer one limit for the whole. 0 disables a timer.
 *
 * <p>A PD decode follows the spec's decode watchdog ("SGLang Decode Watchdog"), for every engine: its timers start at
 * the prefill's success (before that the prefill's own timeout bounds the wait) and read decodeFirstResponseTimeout,
 * decodeStreamIdleTimeout and decodeResponseTimeout. Where one of those is 0 (the spec's "disabled", and
 * AIBRIX_DECODE_RESPONSE_TIMEOUT's default) the gateway's own bound for that case applies instead
 * (PD_GATEWAY_UPSTREAM_*), so no decode can hold a client forever unless both are 0. A standard pod's leg has only
 * the gateway's bounds, counted from when it is sent: it computes the prefill itself.
 *
 * <p>While the client does not read ({@link #clientStalled()}) the pod's answer is paused and its silence is not the
 * pod's fault: the timers stop until the client drains (the slow client has its own rule in the exchange). Runs on
 * the exchange's event loop.
 *
 * <p>A chunk only notes its time: the idle timer is armed once and, when it fires early (chunks came meanwhile), armed
 * again for what is left of the bound. Swapping a timer on every chunk cost two scheduler operations, a String.format
 * and a few hundred bytes per token of every stream (issue 16's profile).
 */
final class LegWatchdog {
    private static final long OFF = -1;
    private static final long NANOS_PER_MILLI = 1_000_000;

    /** The limits of one leg, in seconds (0: none), and the words of its alarms. */
    record Bounds(double firstSeconds, double idleSeconds, double wholeSeconds, String who) {}

    private final Vertx vertx;
    private final Bounds bounds;
    private final boolean streaming;
    private final Consumer<String> alarm;
    private final LongSupplier clock;
    private long timer = OFF;
    /** Whether the armed timer is the idle bound, which chunks push back without touching the timer. */
    private boolean idleArmed;
    private long lastChunkNanos;
    private boolean started;
    private boolean firstChunkSeen;
    private boolean clientStalled;
    private boolean stopped;

    /** @param alarm told why, once, when a bound is exceeded */
    LegWatchdog(Vertx vertx, Bounds bounds, boolean streaming, Consumer<String> alarm) {
        this(vertx, bounds, streaming, alarm, System::nanoTime);
    }

    /** @param clock the monotonic clock in nanoseconds that chunk times are read from */
    LegWatchdog(Vertx vertx, Bounds bounds, boolean streaming, Consumer<String> alarm, LongSupplier clock) {
        this.vertx = vertx;
        this.bounds = bounds;
        this.streaming = streaming;
        this.alarm = alarm;
        this.clock = clock;
    }

    /** A PD decode's bounds: the spec's knobs, each backed by the gateway's own where the knob is 0. */
    static Bounds decode(PdKnobs knobs, UpstreamSettings upstream) {
        return new Bounds(or(knobs.decodeFirstResponseTimeout(), upstream.firstByteSeconds()),
                or(knobs.decodeStreamIdleTimeout(), upstream.streamIdleSeconds()),
                or(knobs.decodeResponseTimeout(), upstream.responseSeconds()), "the decode pod");
    }

    /** A standard pod's bounds (the gateway's own). */
    static Bounds standard(UpstreamSettings upstream) {
        return new Bounds(upstream.firstByteSeconds(), upstream.streamIdleSeconds(), upstream.responseSeconds(),
                "the pod");
    }

    private static double or(double specValue, double backstop) {
        return specValue > 0 ? specValue : backstop;
    }

    /**
     * The leg now owes the answer: a decode once its prefill succeeded, a standard pod's leg once it is sent. Starts
     * the first-chunk (stream) or whole-answer timer.
     */
    void start() {
        if (stopped) {
            return;
        }
        started = true;
        if (!streaming) {
            arm(bounds.wholeSeconds(), " did not answer within ");
        } else if (!firstChunkSeen) { // a stream that already flows is watched by the idle bound
            arm(bounds.firstSeconds(), " sent no token within ");
        }
    }

    /** A body chunk of the answer arrived. */
    void chunk() {
        if (stopped) {
            return;
        }
        firstChunkSeen = true;
        lastChunkNanos = clock.getAsLong();
        if (streaming && !clientStalled && !idleArmed) {
            armIdle(bounds.idleSeconds());
        }
    }

    /** The client stopped reading and the pod's answer is paused: the pod's silence is not its own fault now. */
    void clientStalled() {
        clientStalled = true;
        cancel();
    }

    /** The client read again: the pod's timers run again, from now. */
    void clientDrained() {
        clientStalled = false;
        if (stopped || !started) {
            return;
        }
        if (streaming && firstChunkSeen) {
            lastChunkNanos = clock.getAsLong();
            armIdle(bounds.idleSeconds());
        } else {
            start();
        }
    }

    /** The answer ended, or the request did: no alarm any more. */
    void stop() {
        stopped = true;
        cancel();
    }

    /** Arms the first-chunk or whole-answer bound; {@code why} sits between who and the bound in the alarm. */
    private void arm(double seconds, String why) {
        cancel();
        if (seconds <= 0) {
            return;
        }
        timer = vertx.setTimer(LegAborter.millis(seconds), id -> {
            timer = OFF;
            fire(bounds.who() + why + formatSeconds(seconds) + " s");
        });
    }

    /** Arms the idle bound to run out {@code seconds} after the last chunk; chunks meanwhile only move that chunk. */
    private void armIdle(double seconds) {
        cancel();
        if (seconds <= 0) {
            return;
        }
        long boundNanos = LegAborter.millis(seconds) * NANOS_PER_MILLI;
        long leftMillis = Math.max(1, (lastChunkNanos + boundNanos - clock.getAsLong() + NANOS_PER_MILLI - 1)
                / NANOS_PER_MILLI);
        idleArmed = true;
        timer = vertx.setTimer(leftMillis, id -> {
            timer = OFF;
            idleArmed = false;
            if (clock.getAsLong() - lastChunkNanos < boundNanos) {
                if (!stopped) {
                    armIdle(seconds); // a chunk came since it was armed: wait out the rest of the bound
                }
                return;
            }
            fire(bounds.who() + "'s stream stalled for " + formatSeconds(seconds) + " s");
        });
    }

    private void fire(String reason) {
        if (!stopped) {
            stopped = true;
            alarm.accept(reason);
        }
    }

    private void cancel() {
        idleArmed = false;
        if (timer != OFF) {
            vertx.cancelTimer(timer);
            timer = OFF;
        }
    }

    private static String formatSeconds(double seconds) {
        return seconds == Math.rint(seconds) ? Long.toString((long) seconds) : Double.toString(seconds);
    }
}
