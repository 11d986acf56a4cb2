package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.pdgateway.server.trace.RequestTrace;
import io.pdgateway.server.trace.Tracing;
import io.pdgateway.sim.RecordedRequest;
import io.pdgateway.sim.SimRole;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Tracing over real sockets, with the SDK's in-memory exporter: the client's W3C trace context is continued (or a trace
 * started), the gateway's SERVER span has routing, prefill and decode children, the pods receive a traceparent whose
 * parent is their leg's span, and with tracing off the client's traceparent reaches the pods untouched.
 */
class TracingIT {
    private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CLIENT_SPAN = "00f067aa0ba902b7";
    private static final String TRACEPARENT = "00-" + TRACE_ID + "-" + CLIENT_SPAN + "-01";

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    private TestCluster cluster;

    @AfterEach
    void tearDown() {
        if (cluster != null) {
            cluster.close();
        }
        sdk.close();
    }

    private static SpanData named(List<SpanData> spans, String name) {
        List<SpanData> matching = spans.stream().filter(s -> s.getName().equals(name)).toList();
        assertThat(matching).as("spans named " + name).hasSize(1);
        return matching.get(0);
    }

    /** The parent span id a traceparent names (its third field), after checking its trace id. */
    private static String parentOf(RecordedRequest leg, String traceId) {
        String traceparent = leg.header("traceparent");
        assertThat(traceparent).as("traceparent at the pod").isNotNull();
        String[] parts = traceparent.split("-");
        assertThat(parts[1]).isEqualTo(traceId);
        return parts[2];
    }

    @Test
    void pdRequestWithTraceparent_spansContinueTheTrace_andEachLegCarriesItsOwnSpan() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd"), Tracing.of(sdk));
        HttpResponse<String> response = cluster.post("/v1/chat/completions", TestCluster.chat("hello traces", 4, true),
                "traceparent", TRACEPARENT, "tracestate", "vendor=1");
        assertThat(response.statusCode()).isEqualTo(200);

        await().atMost(10, TimeUnit.SECONDS).until(() -> exporter.getFinishedSpanItems().size() >= 4);
        List<SpanData> spans = exporter.getFinishedSpanItems();
        assertThat(spans).extracting(SpanData::getTraceId).containsOnly(TRACE_ID);
        SpanData server = named(spans, "POST /v1/chat/completions");
        assertThat(server.getKind()).isEqualTo(SpanKind.SERVER);
        assertThat(server.getParentSpanId()).isEqualTo(CLIENT_SPAN);
        assertThat(server.getAttributes().get(RequestTrace.GEN_AI_MODEL)).isEqualTo(TestCluster.MODEL);
        assertThat(server.getAttributes().get(RequestTrace.GEN_AI_OPERATION)).isEqualTo("chat");
        assertThat(server.getAttributes().get(RequestTrace.GEN_AI_SYSTEM)).isEqualTo("vllm");
        assertThat(server.getAttributes().get(RequestTrace.STRATEGY)).isEqualTo("pd");
        assertThat(server.getAttributes().get(RequestTrace.OUTCOME)).isEqualTo("success");
        assertThat(server.getSpanContext().getTraceState().get("vendor")).isEqualTo("1");

        SpanData route = named(spans, RequestTrace.ROUTE_SPAN);
        SpanData prefill = named(spans, RequestTrace.PREFILL_SPAN);
        SpanData decode = named(spans, RequestTrace.DECODE_SPAN);
        assertThat(List.of(route, prefill, decode)).extracting(SpanData::getParentSpanId)
                .containsOnly(server.getSpanId());
        assertThat(route.getAttributes().get(RequestTrace.PREFILL_POD)).isEqualTo("prefill-0");
        assertThat(route.getAttributes().get(RequestTrace.TARGET_POD)).isEqualTo("decode-0");
        assertThat(prefill.getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(prefill.getAttributes().get(RequestTrace.POD)).isEqualTo("prefill-0");
        assertThat(decode.getAttributes().get(RequestTrace.POD)).isEqualTo("decode-0");
        assertThat(decode.getAttributes().get(RequestTrace.LEG)).isEqualTo("decode");

        RecordedRequest prefillLeg = cluster.inferenceRequests("prefill-0").get(0);
        RecordedRequest decodeLeg = cluster.inferenceRequests("decode-0").get(0);
        assertThat(parentOf(prefillLeg, TRACE_ID)).isEqualTo(prefill.getSpanId());
        assertThat(parentOf(decodeLeg, TRACE_ID)).isEqualTo(decode.getSpanId());
        assertThat(decodeLeg.header("tracestate")).isEqualTo("vendor=1");
    }

    @Test
    void requestWithoutTraceparent_startsATrace_thatReachesThePod() throws Exception {
        cluster = new TestCluster().standard("standard-0").startGateway(Map.of(), Tracing.of(sdk));
        HttpResponse<String> response = cluster.post("/v1/completions",
                "{\"model\":\"my-model\",\"prompt\":\"hi\",\"max_tokens\":2}");
        assertThat(response.statusCode()).isEqualTo(200);

        await().atMost(10, TimeUnit.SECONDS).until(() -> exporter.getFinishedSpanItems().size() >= 3);
        SpanData server = named(exporter.getFinishedSpanItems(), "POST /v1/completions");
        assertThat(server.getParentSpanContext().isValid()).isFalse();
        assertThat(server.getAttributes().get(RequestTrace.GEN_AI_OPERATION)).isEqualTo("text_completion");
        SpanData single = named(exporter.getFinishedSpanItems(), RequestTrace.DECODE_SPAN);
        assertThat(single.getAttributes().get(RequestTrace.LEG)).isEqualTo("single");
        assertThat(parentOf(cluster.inferenceRequests("standard-0").get(0), server.getTraceId()))
                .isEqualTo(single.getSpanId());
    }

    @Test
    void tracingOff_passesTheClientsTraceparentThrough_andRecordsNothing() throws Exception {
        cluster = new TestCluster().prefill("prefill-0", "group-0").decode("decode-0", "group-0")
                .startGateway(Map.of("ROUTING_ALGORITHM", "pd"), Tracing.off());
        HttpResponse<String> response = cluster.post("/v1/chat/completions", TestCluster.chat("no traces", 2, false),
                "traceparent", TRACEPARENT);
        assertThat(response.statusCode()).isEqualTo(200);

        assertThat(cluster.inferenceRequests("prefill-0").get(0).header("traceparent")).isEqualTo(TRACEPARENT);
        assertThat(cluster.inferenceRequests("decode-0").get(0).header("traceparent")).isEqualTo(TRACEPARENT);
        assertThat(exporter.getFinishedSpanItems()).isEmpty();
    }

    @Test
    void unknownModel_endsTheServerSpanWithTheRefusal() throws Exception {
        cluster = new TestCluster().standard("standard-0").startGateway(Map.of(), Tracing.of(sdk));
        HttpResponse<String> response = cluster.post("/v1/chat/completions",
                "{\"model\":\"nope\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}", "traceparent", TRACEPARENT);
        assertThat(response.statusCode()).isEqualTo(404);

        await().atMost(10, TimeUnit.SECONDS).until(() -> exporter.getFinishedSpanItems().size() >= 1);
        SpanData server = named(exporter.getFinishedSpanItems(), "POST /v1/chat/completions");
        assertThat(server.getTraceId()).isEqualTo(TRACE_ID);
        assertThat(server.getAttributes().get(RequestTrace.OUTCOME)).isEqualTo("model_not_found");
        assertThat(server.getStatus().getStatusCode()).isEqualTo(io.opentelemetry.api.trace.StatusCode.ERROR);
    }
}
