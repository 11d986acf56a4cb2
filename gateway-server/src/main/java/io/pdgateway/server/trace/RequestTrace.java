package io.pdgateway.server.trace;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.routing.RouteDecision;
import java.util.concurrent.TimeUnit;

/**
 * One request's spans: the SERVER span, its routing child and its leg children. {@link #OFF} is the shared instance
 * for tracing off: every method returns at once. Used on the request's event loop (or the picker's stream), like the
 * request itself; ending is idempotent.
 *
 * <p>Attributes follow the OpenTelemetry HTTP and GenAI semantic conventions where one fits ({@code http.*},
 * {@code url.path}, {@code server.*}, {@code gen_ai.request.model}, {@code gen_ai.operation.name},
 * {@code gen_ai.system}) and say the rest under {@code pd.*}.
 */
public final class RequestTrace {
    /** Tracing off. */
    public static final RequestTrace OFF = new RequestTrace(null, null, null, null);

    static final AttributeKey<String> HTTP_METHOD = AttributeKey.stringKey("http.request.method");
    static final AttributeKey<String> URL_PATH = AttributeKey.stringKey("url.path");
    static final AttributeKey<Long> HTTP_STATUS = AttributeKey.longKey("http.response.status_code");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
    public static final AttributeKey<String> GEN_AI_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    public static final AttributeKey<String> GEN_AI_OPERATION = AttributeKey.stringKey("gen_ai.operation.name");
    /** The engine (vllm, sglang, trtllm): the GenAI conventions' name for the serving system. */
    public static final AttributeKey<String> GEN_AI_SYSTEM = AttributeKey.stringKey("gen_ai.system");
    public static final AttributeKey<String> STRATEGY = AttributeKey.stringKey("pd.routing.strategy");
    public static final AttributeKey<String> VERDICT = AttributeKey.stringKey("pd.routing.verdict");
    public static final AttributeKey<String> STEP = AttributeKey.stringKey("pd.routing.step");
    public static final AttributeKey<String> PREFILL_POD = AttributeKey.stringKey("pd.prefill.pod");
    public static final AttributeKey<String> TARGET_POD = AttributeKey.stringKey("pd.target.pod");
    /** prefill, decode, or single (a standard pod, or any pod of a non-PD strategy). */
    public static final AttributeKey<String> LEG = AttributeKey.stringKey("pd.leg");
    public static final AttributeKey<String> POD = AttributeKey.stringKey("pd.pod");
    /** success, or why the request ended otherwise (the failure metric's status). */
    public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("pd.outcome");
    /** Span names. */
    public static final String ROUTE_SPAN = "pd.route";
    public static final String PREFILL_SPAN = "pd.prefill";
    public static final String DECODE_SPAN = "pd.decode";

    /** The kind of a leg, as the {@code pd.leg} attribute says it. */
    public enum Leg {
        PREFILL("prefill", PREFILL_SPAN), DECODE("decode", DECODE_SPAN), SINGLE("single", DECODE_SPAN);

        private final String attribute;
        private final String spanName;

        Leg(String attribute, String spanName) {
            this.attribute = attribute;
            this.spanName = spanName;
        }
    }

    private final Tracer tracer;
    private final TextMapPropagator propagator;
    private final Span span;
    private final Context context;
    private boolean ended;

    RequestTrace(Tracer tracer, TextMapPropagator propagator, Span span, Context context) {
        this.tracer = tracer;
        this.propagator = propagator;
        this.span = span;
        this.context = context;
    }

    /** The request's model, operation (chat or text_completion) and engine, once known. */
    public void describe(String model, String operation, String engine) {
        if (span == null) {
            return;
        }
        span.setAttribute(GEN_AI_MODEL, model);
        span.setAttribute(GEN_AI_OPERATION, operation);
        if (engine != null) {
            span.setAttribute(GEN_AI_SYSTEM, engine);
        }
    }

    /**
     * The routing decision as a child span that covers the time the session spent on it (it ended just now), and as
     * attributes of the request span.
     */
    public void routed(RouteDecision decision, long routingNanos) {
        if (span == null) {
            return;
        }
        long end = System.currentTimeMillis() * 1_000_000L;
        Span route = tracer.spanBuilder(ROUTE_SPAN).setParent(context).setSpanKind(SpanKind.INTERNAL)
                .setStartTimestamp(end - routingNanos, TimeUnit.NANOSECONDS).startSpan();
        describe(route, decision);
        describe(span, decision);
        if (!decision.verdict().routed()) {
            route.setStatus(StatusCode.ERROR, decision.verdict().name());
        }
        route.end(end, TimeUnit.NANOSECONDS);
    }

    private static void describe(Span target, RouteDecision decision) {
        target.setAttribute(STRATEGY, decision.strategy().specName());
        target.setAttribute(VERDICT, decision.verdict().name());
        if (decision.step() != null) {
            target.setAttribute(STEP, decision.step());
        }
        if (decision.prefill() != null) {
            target.setAttribute(PREFILL_POD, decision.prefill().name());
        }
        if (decision.target() != null) {
            target.setAttribute(TARGET_POD, decision.target().name());
        }
    }

    /** A leg's CLIENT span, started now; {@link LegTrace#OFF} when tracing is off. */
    public LegTrace leg(Leg leg, Pod pod) {
        if (span == null) {
            return LegTrace.OFF;
        }
        Span child = tracer.spanBuilder(leg.spanName).setParent(context).setSpanKind(SpanKind.CLIENT)
                .setAttribute(LEG, leg.attribute)
                .setAttribute(POD, pod.name())
                .setAttribute(SERVER_ADDRESS, pod.ip())
                .setAttribute(SERVER_PORT, (long) pod.port())
                .setAttribute(GEN_AI_SYSTEM, pod.engine())
                .setAttribute(GEN_AI_MODEL, pod.model())
                .startSpan();
        return new LegTrace(child, context.with(child), propagator);
    }

    /**
     * Ends the request span once: the status the client got and the outcome.
     *
     * @param failure null for success, else why it ended (the failure metric's status label)
     */
    public void end(int status, String failure) {
        if (span == null || ended) {
            return;
        }
        ended = true;
        span.setAttribute(HTTP_STATUS, (long) status);
        span.setAttribute(OUTCOME, failure == null ? "success" : failure);
        if (failure != null) {
            span.setAttribute(ERROR_TYPE, failure);
            span.setStatus(StatusCode.ERROR, failure);
        }
        span.end();
    }
}
