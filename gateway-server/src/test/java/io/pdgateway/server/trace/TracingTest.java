package io.pdgateway.server.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** When tracing is on, and what "off" costs: one shared no-op per request and per leg, no span object. */
class TracingTest {

    @Test
    void exporterUnset_tracingOff() {
        assertThat(Tracing.fromEnv(Map.of()).enabled()).isFalse();
    }

    @Test
    void exporterNone_tracingOff() {
        assertThat(Tracing.fromEnv(Map.of(Tracing.TRACES_EXPORTER_ENV, " None ")).enabled()).isFalse();
    }

    @Test
    void sdkDisabled_tracingOffWhateverTheExporter() {
        assertThat(Tracing.fromEnv(Map.of(Tracing.TRACES_EXPORTER_ENV, "otlp", Tracing.SDK_DISABLED_ENV, "true"))
                .enabled()).isFalse();
    }

    @Test
    void exporterNamed_tracingOnThroughAutoconfiguration() {
        try (Tracing tracing = Tracing.fromEnv(Map.of(Tracing.TRACES_EXPORTER_ENV, "otlp"))) {
            assertThat(tracing.enabled()).isTrue();
        }
    }

    @Test
    void off_everyRequestAndLegIsTheSharedNoOp() {
        Tracing off = Tracing.off();
        RequestTrace trace = off.request(Map.of("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
                HeaderGetters.LOWER_CASE_MAP, "POST", "/v1/chat/completions");
        assertThat(trace).isSameAs(RequestTrace.OFF);
        LegTrace leg = trace.leg(RequestTrace.Leg.PREFILL, null);
        assertThat(leg).isSameAs(LegTrace.OFF);
        assertThat(leg.recording()).isFalse();
        StringBuilder injected = new StringBuilder();
        leg.inject((name, value) -> injected.append(name));
        assertThat(injected).isEmpty();
    }
}
