package io.pdgateway.server.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The phases of one request on a hand-driven clock: TTFT and decode from the first and last bytes, and the time per
 * output token from the stream's events, counted however the pod's bytes are split into chunks, with
 * {@code data: [DONE]} left out and a non-streamed answer reporting none; a request for n completions streams n events
 * a step.
 */
class PhaseTimesTest {
    private final AtomicLong now = new AtomicLong(1_000);
    private final Recorded sink = new Recorded();

    /** What was reported, in nanoseconds. */
    private static final class Recorded implements PhaseTimes.PhaseSink {
        final List<Long> ttft = new ArrayList<>();
        final List<Long> decode = new ArrayList<>();
        final List<Long> tpot = new ArrayList<>();

        @Override
        public void ttft(long nanos) {
            ttft.add(nanos);
        }

        @Override
        public void prefill(long nanos) {}

        @Override
        public void kvTransfer(long nanos) {}

        @Override
        public void decode(long nanos) {
            decode.add(nanos);
        }

        @Override
        public void tpot(long nanos) {
            tpot.add(nanos);
        }
    }

    private void at(PhaseTimes phases, long time, String chunk) {
        now.set(time);
        phases.chunk(Buffer.buffer(chunk));
    }

    @Test
    void fourEventsTenMillisApart_tpotIsTenMillis_doneNotCounted() {
        PhaseTimes phases = new PhaseTimes(now::get, 1, 0);
        at(phases, 2_000, "data: {\"t\":0}\n\n");
        at(phases, 12_000, "data: {\"t\":1}\n\n");
        at(phases, 22_000, "data: {\"t\":2}\n\n");
        // The last token and [DONE] in one chunk: [DONE] adds no event, so 4 events over 30 µs are 3 gaps of 10 µs.
        at(phases, 32_000, "data: {\"t\":3}\n\ndata: [DONE]\n\n");
        phases.report(sink, 40_000);

        assertThat(sink.ttft).containsExactly(1_000L);
        assertThat(sink.decode).containsExactly(38_000L);
        assertThat(sink.tpot).containsExactly(10_000L);
    }

    @Test
    void eventsSplitAcrossChunks_eachCountedOnce() {
        PhaseTimes phases = new PhaseTimes(now::get, 1, 0);
        at(phases, 2_000, "da");
        at(phases, 3_000, "ta: {\"t\":0}\n\nd"); // the first event is known once "data:" is followed by a token
        at(phases, 13_000, "ata: {\"t\":1}\n");
        at(phases, 23_000, "\ndata: [DO");
        at(phases, 24_000, "NE]\n\n");
        phases.report(sink, 30_000);

        // Events at 3 µs and 13 µs; the split [DONE] is not one. Two events, one gap of 10 µs.
        assertThat(sink.tpot).containsExactly(10_000L);
    }

    @Test
    void aLineKnownInOneChunkAndEndingInALaterOne_isOneEvent_andOtherFieldsAreNone() {
        PhaseTimes phases = new PhaseTimes(now::get, 1, 0);
        String[] chunks = {": keep-alive\nevent: token\ndata: {\"text\":\"a long to",
            "ken, still the same line: data: here is no event\"", "}\n\nid: 7\ndata: {\"t\":1}\n\n"};
        for (int i = 0; i < chunks.length; i++) {
            at(phases, 2_000 + 1_000L * i, chunks[i]); // one a microsecond from 2 µs
        }
        phases.report(sink, 10_000);

        // Two events (at 2 µs and 4 µs): the comment, event and id lines and the long line's later chunks add none.
        assertThat(sink.tpot).containsExactly(2_000L);
    }

    @Test
    void dataWithoutSpaceAndCarriageReturns_countAsEvents() {
        PhaseTimes phases = new PhaseTimes(now::get, 1, 0);
        at(phases, 2_000, "data:{\"t\":0}\r\n\r\n");
        at(phases, 8_000, "data:{\"t\":1}\r\n\r\ndata:[DONE]\r\n\r\n");
        phases.report(sink, 9_000);

        assertThat(sink.tpot).containsExactly(6_000L);
    }

    @Test
    void nonStreamedAnswer_reportsNoTpot() {
        PhaseTimes phases = new PhaseTimes(now::get, 1, 0);
        at(phases, 5_000, "{\"choices\":[{\"text\":\"data: not an event\\n\"}]}");
        phases.report(sink, 6_000);

        assertThat(sink.ttft).containsExactly(4_000L);
        assertThat(sink.tpot).isEmpty();
    }

    @Test
    void oneEvent_reportsNoTpot() {
        PhaseTimes phases = new PhaseTimes(now::get, 1, 0);
        at(phases, 5_000, "data: {\"t\":0}\n\ndata: [DONE]\n\n");
        phases.report(sink, 6_000);

        assertThat(sink.tpot).isEmpty();
    }

    @Test
    void twoChoices_twoEventsAStep_tpotIsTheStepsGap() {
        PhaseTimes phases = new PhaseTimes(now::get, 2, 0);
        for (int step = 0; step < 4; step++) {
            at(phases, 2_000 + 10_000L * step, "data: {\"index\":0}\n\n");
            at(phases, 2_500 + 10_000L * step, "data: {\"index\":1}\n\n");
        }
        phases.report(sink, 40_000);

        // 8 events from 2 µs to 32.5 µs: 4 steps, 3 gaps of 10.17 µs (read as 8 tokens it would be 4.36 µs).
        assertThat(sink.tpot).containsExactly(10_167L);
    }

    @Test
    void chatStreamWithUsage_roleAndUsageChunksCarryNoToken() {
        // A chat stream of two choices with include_usage: two role chunks, 2 × 3 tokens, one usage chunk.
        PhaseTimes phases = new PhaseTimes(now::get, 2, 3);
        at(phases, 2_000, "data: {\"role\":0}\n\ndata: {\"role\":1}\n\n");
        for (int step = 0; step < 3; step++) {
            at(phases, 2_000 + 10_000L * step, "data: {\"index\":0}\n\ndata: {\"index\":1}\n\n");
        }
        at(phases, 22_000, "data: {\"choices\":[],\"usage\":{}}\n\ndata: [DONE]\n\n");
        phases.report(sink, 30_000);

        // 9 events from 2 µs to 22 µs: 3 token steps, 2 gaps of 10 µs (counting every event: 20 / 3.5 = 5.7 µs).
        assertThat(sink.tpot).containsExactly(10_000L);
    }
}
