package io.pdgateway.epp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.pdgateway.server.trace.RequestTrace;
import io.pdgateway.server.trace.Tracing;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The picker's requests get serve's spans: the client's trace continued, routing and prefill children, and a decode
 * span whose context the picker hands Envoy in the traceparent it sets, so the decode pod's parent is that span.
 */
class EppTracingIT {
    private static final String TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-b7ad6b7169203331-01";

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    private EppCluster cluster;

    @AfterEach
    void tearDown() {
        if (cluster != null) {
            cluster.close();
        }
        sdk.close();
    }

    private static SpanData named(String name, List<SpanData> spans) {
        return spans.stream().filter(s -> s.getName().equals(name)).findFirst().orElseThrow(
                () -> new AssertionError("no span " + name + " in " + spans));
    }

    @Test
    void pdRequestWithTraceparent_pickerSpansInTheClientsTrace_andEachPodsParentIsItsLegSpan() throws Exception {
        cluster = new EppCluster("vllm").prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .startPicker(Map.of("ROUTING_ALGORITHM", "pd"), 1234, Tracing.of(sdk));
        byte[] client = EppCluster.chat("traced picker", 4, false).getBytes(StandardCharsets.UTF_8);
        try (EnvoyStream envoy = cluster.buffered()) {
            EppCluster.Pick pick = EppCluster.askBuffered(envoy, EppCluster.CHAT, Map.of("traceparent", TRACEPARENT),
                    null, client);
            assertThat(cluster.forward(pick, EppCluster.CHAT).statusCode()).isEqualTo(200);
            envoy.responseHeaders(200, pick.endpoint(), false);
            envoy.next();
            envoy.responseBody("{}", true);
            envoy.next();
        }
        await().atMost(10, TimeUnit.SECONDS).until(() -> exporter.getFinishedSpanItems().size() >= 4);
        List<SpanData> spans = exporter.getFinishedSpanItems();
        assertThat(spans).extracting(SpanData::getTraceId).containsOnly(TRACE_ID);
        SpanData server = named("POST " + EppCluster.CHAT, spans);
        assertThat(server.getParentSpanId()).isEqualTo("b7ad6b7169203331");
        SpanData prefill = named(RequestTrace.PREFILL_SPAN, spans);
        SpanData decode = named(RequestTrace.DECODE_SPAN, spans);
        assertThat(List.of(named(RequestTrace.ROUTE_SPAN, spans), prefill, decode))
                .extracting(SpanData::getParentSpanId).containsOnly(server.getSpanId());
        assertThat(server.getAttributes().get(RequestTrace.OUTCOME)).isEqualTo("success");

        String atPrefill = cluster.inference("prefill-0").get(0).header("traceparent");
        String atDecode = cluster.inference("decode-0").get(0).header("traceparent");
        assertThat(atPrefill.split("-")[1]).isEqualTo(TRACE_ID);
        assertThat(atPrefill.split("-")[2]).isEqualTo(prefill.getSpanId());
        assertThat(atDecode.split("-")[1]).isEqualTo(TRACE_ID);
        assertThat(atDecode.split("-")[2]).isEqualTo(decode.getSpanId());
    }
}
