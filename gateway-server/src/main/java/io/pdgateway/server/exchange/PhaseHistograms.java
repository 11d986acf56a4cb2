package io.pdgateway.server.exchange;

import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;

/** The per-phase timers of one model and route, as a sink for {@link PhaseTimes}. */
public record PhaseHistograms(Timer ttft, Timer prefill, Timer kvTransfer, Timer decode, Timer tpot)
        implements PhaseTimes.PhaseSink {
    @Override
    public void ttft(long nanos) {
        ttft.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void prefill(long nanos) {
        prefill.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void kvTransfer(long nanos) {
        kvTransfer.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void decode(long nanos) {
        decode.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void tpot(long nanos) {
        tpot.record(nanos, TimeUnit.NANOSECONDS);
    }
}
