package io.pdgateway.server.trace;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigurationException;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway's one tracing seam: the HTTP front, the exchange, its legs and the endpoint picker call it, and only it
 * touches OpenTelemetry. Each request gets a SERVER span that continues the client's W3C {@code traceparent} and
 * {@code tracestate} (a new trace when there is none), with child spans for routing and for each leg; a leg carries its
 * own span's context to the pod.
 *
 * <p>Off unless the standard environment asks for an exporter ({@code OTEL_TRACES_EXPORTER} set and not {@code none}).
 * Off costs nothing on the hot path: {@link #request} answers the shared {@link RequestTrace#OFF}, whose methods do
 * nothing and create no span, and the legs keep passing the client's own {@code traceparent} through as before.
 * Everything else about the SDK (endpoint, protocol, sampler, resource, batch sizes) is the SDK's own autoconfiguration
 * of the {@code OTEL_*} variables.
 */
public final class Tracing implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Tracing.class);
    /** The standard variable that names the span exporter (OpenTelemetry SDK configuration). */
    public static final String TRACES_EXPORTER_ENV = "OTEL_TRACES_EXPORTER";
    /** The standard switch that disables the whole SDK. */
    public static final String SDK_DISABLED_ENV = "OTEL_SDK_DISABLED";
    /** The instrumentation scope of every span the gateway makes. */
    static final String SCOPE = "io.pdgateway";
    /** The service.name unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES says otherwise. */
    static final String DEFAULT_SERVICE_NAME = "pd-gateway";

    private static final Tracing OFF = new Tracing(null, null, null);

    private final Tracer tracer;
    private final TextMapPropagator propagator;
    private final OpenTelemetrySdk owned;

    private Tracing(Tracer tracer, TextMapPropagator propagator, OpenTelemetrySdk owned) {
        this.tracer = tracer;
        this.propagator = propagator;
        this.owned = owned;
    }

    /** Tracing off: no span is ever made. */
    public static Tracing off() {
        return OFF;
    }

    /**
     * Tracing as the environment says: off when {@code OTEL_TRACES_EXPORTER} is unset, blank or {@code none}, or
     * {@code OTEL_SDK_DISABLED=true}; otherwise the SDK autoconfigured from the {@code OTEL_*} variables (traces only:
     * the metrics and logs exporters default to none here, since /metrics already serves the gateway's metrics). OTLP
     * defaults to http/protobuf, the protocol the specification makes the default, sent by the JDK's HTTP client; gRPC
     * OTLP is not bundled.
     *
     * @throws IllegalArgumentException when the OTEL_* variables configure something the SDK rejects
     */
    public static Tracing fromEnv(Map<String, String> env) {
        String exporter = env.get(TRACES_EXPORTER_ENV);
        if (exporter == null || exporter.isBlank() || exporter.trim().toLowerCase(Locale.ROOT).equals("none")
                || "true".equalsIgnoreCase(env.get(SDK_DISABLED_ENV))) {
            return OFF;
        }
        OpenTelemetrySdk sdk;
        try {
            sdk = AutoConfiguredOpenTelemetrySdk.builder()
                    .addPropertiesSupplier(() -> Map.of("otel.metrics.exporter", "none", "otel.logs.exporter", "none",
                            "otel.service.name", DEFAULT_SERVICE_NAME, "otel.exporter.otlp.protocol", "http/protobuf"))
                    .disableShutdownHook()
                    .build()
                    .getOpenTelemetrySdk();
        } catch (ConfigurationException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IllegalArgumentException("the OTEL_* tracing settings are not usable: " + cause.getMessage(), e);
        }
        LOG.info("tracing on: spans go to the {} exporter", exporter.trim());
        return new Tracing(sdk.getTracer(SCOPE), sdk.getPropagators().getTextMapPropagator(), sdk);
    }

    /** Tracing through a caller's OpenTelemetry (a test's in-memory exporter); the caller closes it. */
    public static Tracing of(OpenTelemetry openTelemetry) {
        return new Tracing(openTelemetry.getTracer(SCOPE), openTelemetry.getPropagators().getTextMapPropagator(), null);
    }

    public boolean enabled() {
        return tracer != null;
    }

    /**
     * The trace of one request: its SERVER span, a child of the context the carrier's headers propagate (a root span
     * when they carry none). {@link RequestTrace#OFF} when tracing is off.
     *
     * <p>The span is named "{method} {path}", as the HTTP conventions name a server span (our paths are the routes).
     */
    public <C> RequestTrace request(C carrier, TextMapGetter<C> headers, String method, String path) {
        if (tracer == null) {
            return RequestTrace.OFF;
        }
        Context parent = propagator.extract(Context.root(), carrier, headers);
        Span span = tracer.spanBuilder(method + " " + path).setParent(parent).setSpanKind(SpanKind.SERVER)
                .setAttribute(RequestTrace.HTTP_METHOD, method)
                .setAttribute(RequestTrace.URL_PATH, path)
                .startSpan();
        return new RequestTrace(tracer, propagator, span, parent.with(span));
    }

    /** Flushes and stops the SDK this instance configured itself; nothing for {@link #off()} or {@link #of}. */
    @Override
    public void close() {
        if (owned != null) {
            owned.close();
        }
    }
}
