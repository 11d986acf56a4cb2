package io.pdgateway.server.trace;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapPropagator;
import java.util.function.BiConsumer;

/**
 * One leg's CLIENT span, and the context the leg carries to its pod ({@code traceparent} naming this span as the
 * parent). {@link #OFF} when tracing is off: it injects nothing, so the client's own headers pass through unchanged.
 * Ending is idempotent.
 */
public final class LegTrace {
    public static final LegTrace OFF = new LegTrace(null, null, null);

    private final Span span;
    private final Context context;
    private final TextMapPropagator propagator;
    private boolean ended;

    LegTrace(Span span, Context context, TextMapPropagator propagator) {
        this.span = span;
        this.context = context;
        this.propagator = propagator;
    }

    public boolean recording() {
        return span != null;
    }

    /** Writes this leg's propagation headers (traceparent, tracestate, baggage) through {@code header}. */
    public void inject(BiConsumer<String, String> header) {
        if (span != null) {
            propagator.inject(context, header, (sink, name, value) -> sink.accept(name, value));
        }
    }

    /** The leg answered: the pod's status. */
    public void answered(int status) {
        if (span == null || ended) {
            return;
        }
        ended = true;
        span.setAttribute(RequestTrace.HTTP_STATUS, (long) status);
        if (status >= 400) {
            span.setStatus(StatusCode.ERROR, "HTTP " + status);
            span.setAttribute(RequestTrace.ERROR_TYPE, Integer.toString(status));
        }
        span.end();
    }

    /** The leg failed without an answer (timeout, connection, protocol) or was given up. */
    public void failed(String why) {
        if (span == null || ended) {
            return;
        }
        ended = true;
        span.setAttribute(RequestTrace.ERROR_TYPE, why);
        span.setStatus(StatusCode.ERROR, why);
        span.end();
    }
}
