package io.pdgateway.server.exchange;

import io.netty.buffer.ByteBuf;
import io.pdgateway.server.front.OpenAiRequest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.buffer.BufferInternal;
import java.util.function.LongSupplier;

/**
 * When each phase of one request happened, on the monotonic clock, for the per-phase histograms. Only what was
 * observed is reported: a concurrent schedule has no prefill-then-transfer sequence, so it gets no KV estimate.
 *
 * <p>The time per output token comes from the stream itself: every server-sent event of the answer is a line starting
 * {@code data:}, one per token on vLLM, SGLang and TensorRT-LLM streams, so the mean gap between the events after the
 * first (the terminating {@code [DONE]} left out) is the TPOT the client saw. A chat stream's first event carries the
 * role and no token, which makes short streams read a little fast; a non-streamed answer has no events and no TPOT.
 * A request for {@code n} completions streams n events a step, one per choice, so its steps are its events over n:
 * counted as tokens, they read an n-choice stream n times too fast. The events that carry no token (a chat stream's
 * role chunk for each choice, sent with the first tokens, and the usage chunk after the last) are left out of the
 * count: counted, they read a four-token chat stream with usage 40 % fast.
 */
final class PhaseTimes {
    private static final long UNSET = Long.MIN_VALUE;
    private static final byte[] DATA_FIELD = {'d', 'a', 't', 'a', ':'};
    private static final byte[] DONE = {'[', 'D', 'O', 'N', 'E', ']'};

    private final LongSupplier clock;
    private final int choices;
    private final int eventsWithoutTokens;
    private final long startNanos;
    private long prefillStart = UNSET;
    private long prefillEnd = UNSET;
    private long firstChunk = UNSET;
    private boolean sequential;
    /** Events of the answer so far ({@code [DONE]} left out), when the first and the last of them arrived. */
    private int events;
    private long firstEvent = UNSET;
    private long lastEvent = UNSET;
    /** Bytes of "data:" matched at the start of the current line, -1 once the line cannot start an event. */
    private int fieldMatched;
    /** After "data:", bytes of "[DONE]" matched, and whether the one optional space was seen. */
    private int doneMatched;
    private boolean spaceSeen;

    /** The phase times of this request's answer, its stream read as the request shapes it. */
    static PhaseTimes of(OpenAiRequest request) {
        if (!request.stream()) {
            return new PhaseTimes(System::nanoTime, 1, 0);
        }
        OpenAiRequest.StreamShape shape = request.streamShape();
        return new PhaseTimes(System::nanoTime, shape.choices(), shape.eventsWithoutTokens());
    }

    /**
     * @param clock the monotonic clock, in nanoseconds
     * @param choices the completions each step of the answer carries (the request's {@code n})
     * @param eventsWithoutTokens the stream's events that carry no token ({@link OpenAiRequest.StreamShape})
     */
    PhaseTimes(LongSupplier clock, int choices, int eventsWithoutTokens) {
        this.clock = clock;
        this.choices = Math.max(1, choices);
        this.eventsWithoutTokens = Math.max(0, eventsWithoutTokens);
        this.startNanos = clock.getAsLong();
    }

    void prefillStarted(boolean sequentialSchedule) {
        prefillStart = clock.getAsLong();
        sequential = sequentialSchedule;
    }

    void prefillEnded() {
        prefillEnd = clock.getAsLong();
    }

    /**
     * A chunk of the answer arrived from the pod. Only line starts are read byte by byte: once a line is known to be an
     * event or not, the scan jumps to its end (a vectorised search), so a token's JSON is never walked a byte at a
     * time; that walk, with a bounds and liveness check per byte, was the relay's largest cost in the gateway's CPU
     * profile.
     */
    void chunk(Buffer chunk) {
        long now = clock.getAsLong();
        if (firstChunk == UNSET) {
            firstChunk = now;
        }
        ByteBuf bytes = ((BufferInternal) chunk).getByteBuf();
        int found = 0;
        for (int i = bytes.readerIndex(), end = bytes.writerIndex(); i < end; i++) {
            if (fieldMatched < 0) {
                i = bytes.indexOf(i, end, (byte) '\n');
                if (i < 0) {
                    break; // the line goes on in the next chunk
                }
            }
            found += scan(bytes.getByte(i));
        }
        if (found > 0) {
            events += found;
            if (firstEvent == UNSET) {
                firstEvent = now;
            }
            lastEvent = now;
        }
    }

    /**
     * One byte of the answer through a small state machine over line starts, so that a field split across chunks is
     * still seen: 1 when it completes the start of an event ({@code data:} followed by anything but {@code [DONE]}).
     */
    private int scan(byte b) {
        if (b == '\n') {
            int ended = fieldMatched == DATA_FIELD.length ? 1 : 0; // "data:" then the end of the line: an empty event
            fieldMatched = 0;
            doneMatched = 0;
            spaceSeen = false;
            return ended;
        }
        if (fieldMatched < 0) {
            return 0; // not an event line: wait for the next one
        }
        if (fieldMatched < DATA_FIELD.length) {
            fieldMatched = b == DATA_FIELD[fieldMatched] ? fieldMatched + 1 : -1;
            return 0;
        }
        if (b == ' ' && doneMatched == 0 && !spaceSeen) {
            spaceSeen = true;
            return 0;
        }
        if (b == DONE[doneMatched]) {
            doneMatched++;
            if (doneMatched == DONE.length) {
                fieldMatched = -1; // data: [DONE] ends the stream and carries no token
            }
            return 0;
        }
        fieldMatched = -1;
        return 1;
    }

    /** Reports the phases of a request that completed successfully. */
    void report(PhaseSink sink, long endNanos) {
        if (firstChunk != UNSET) {
            sink.ttft(firstChunk - startNanos);
            sink.decode(endNanos - firstChunk);
        }
        double steps = (double) (events - eventsWithoutTokens) / choices;
        if (steps >= 2) {
            sink.tpot(Math.round((lastEvent - firstEvent) / (steps - 1)));
        }
        if (prefillStart != UNSET && prefillEnd != UNSET) {
            sink.prefill(prefillEnd - prefillStart);
            // From the prefill's answer to the decode's first byte: the KV transfer plus the first decode step.
            if (sequential && firstChunk != UNSET && firstChunk >= prefillEnd) {
                sink.kvTransfer(firstChunk - prefillEnd);
            }
        }
    }

    /** Where the phase durations go, in nanoseconds. */
    interface PhaseSink {
        void ttft(long nanos);

        void prefill(long nanos);

        void kvTransfer(long nanos);

        void decode(long nanos);

        /** The mean time per output token of a streamed answer. */
        void tpot(long nanos);
    }
}
