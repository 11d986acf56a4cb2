package io.pdgateway.epp;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.session.Routed;
import io.pdgateway.core.spec.SpecHeaders;
import io.pdgateway.engine.EngineAdapter;
import io.pdgateway.engine.EngineProtocolException;
import io.pdgateway.engine.LegPlan;
import io.pdgateway.engine.LegRequest;
import io.pdgateway.engine.LegSchedule;
import io.pdgateway.server.exchange.LegAborter;
import io.pdgateway.server.exchange.LegFailure;
import io.pdgateway.server.exchange.LegOptions;
import io.pdgateway.server.exchange.PrefillCall;
import io.pdgateway.server.front.ApiError;
import io.pdgateway.server.trace.LegTrace;
import io.pdgateway.server.trace.RequestTrace;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A prefill/decode request's legs as the picker runs them, the way AIBrix's gateway plugin does: the prefill here, on
 * the gateway's own HTTP client, the decode through Envoy (the stream forwards it, with the body the plan gives it).
 * One per PD request, used on its stream's context only, so it needs no locks.
 */
final class PickerLegs {
    private static final Logger LOG = LoggerFactory.getLogger(PickerLegs.class);

    /** What the legs need of their ext_proc stream. */
    interface Stream {
        /** Still waiting for a destination (neither forwarded nor ended). */
        boolean routing();

        /** Sends Envoy on to {@code target}, with {@code body} when the leg's body differs from the client's. */
        void forward(Pod target, byte[] body, RequestTrace.Leg leg);

        /** Ends the request with a local reply. */
        void fail(int status, ApiError error, String why);
    }

    private final PickerContext picker;
    private final Stream stream;
    private final Context context;
    private final EngineAdapter adapter;
    private final Routed routed;
    private final RequestTrace trace;
    private final LegOptions options;
    private final LegAborter aborter;
    private final String requestId;
    private LegPlan plan;
    private PrefillCall prefillCall;
    private LegTrace prefillTrace = LegTrace.OFF;
    private boolean prefillFailedLate;

    PickerLegs(PickerContext picker, Stream stream, Context context, EngineAdapter adapter, Routed routed,
            RequestTrace trace, LegOptions options, String requestId) {
        this.picker = picker;
        this.stream = stream;
        this.context = context;
        this.adapter = adapter;
        this.routed = routed;
        this.trace = trace;
        this.options = options;
        this.aborter = new LegAborter(picker.upstreams(), routed.admission().knobs(), requestId);
        this.requestId = requestId;
    }

    /** Plans and starts the legs, once the prefill pod's metadata is known when the engine's plan needs it. */
    void start(LegRequest legs) {
        if (adapter.prerequisite() == null) {
            run(legs);
            return;
        }
        picker.upstreams().prerequisites().get(legs.prefill(), adapter.prerequisite())
                .onComplete(value -> context.runOnContext(v -> prerequisite(legs, value)));
    }

    /** The prefill failed after Envoy was sent on to the decode (concurrent legs): the response must not pass as a success. */
    boolean prefillFailedLate() {
        return prefillFailedLate;
    }

    /** The request failed or was reset: a prefill still running is abandoned and aborted at its pod. */
    void abandon() {
        if (prefillCall != null && prefillCall.running()) {
            prefillCall.cancel();
            picker.metrics().prefillFailed("context_canceled", 499);
            prefillTrace.failed("abandoned");
            aborter.abort(prefillCall.leg(), plan.prefillAbort());
        }
    }

    private void prerequisite(LegRequest legs, AsyncResult<Object> value) {
        if (!stream.routing()) {
            return;
        }
        if (value.failed()) {
            stream.fail(503, ApiError.of(503, "the " + adapter.engine() + " plan needs the metadata of prefill pod "
                    + legs.prefill().name() + ": " + value.cause().getMessage(), "server_info_unavailable"),
                    "pd_server_info_fail");
            return;
        }
        run(legs.withPrerequisite(value.result()));
    }

    private void run(LegRequest legs) {
        try {
            plan = adapter.plan(legs);
        } catch (EngineProtocolException | RuntimeException e) {
            stream.fail(502, ApiError.of(502, "cannot build the prefill/decode legs: " + e.getMessage(),
                    "pd_plan_failed"), "pd_plan_fail");
            return;
        }
        Pod prefill = legs.prefill();
        prefillTrace = trace.leg(RequestTrace.Leg.PREFILL, prefill);
        picker.metrics().prefillStarted();
        long timeoutMs = LegAborter.millis(routed.admission().knobs().prefillRequestTimeout());
        prefillCall = PrefillCall.start(picker.upstreams(), prefill, options.forPod(prefill, prefillTrace),
                plan.prefillBody(), timeoutMs, answer -> prefillAnswered(legs, answer), this::prefillFailed);
        if (plan.schedule() == LegSchedule.CONCURRENT) {
            // SGLang, TensorRT-LLM generation_first: the engines meet over their own channel; Envoy sends the decode now.
            stream.forward(legs.decode(), plan.decodeBody(), RequestTrace.Leg.DECODE);
        }
    }

    private void prefillAnswered(LegRequest legs, byte[] answer) {
        prefillTrace.answered(200);
        byte[] decodeBody = null;
        if (plan.schedule() == LegSchedule.SEQUENTIAL && stream.routing()) {
            try {
                decodeBody = adapter.decodeBody(legs, plan, answer);
            } catch (EngineProtocolException | RuntimeException e) {
                prefillFailed(LegFailure.protocol(e.toString()));
                return;
            }
        }
        picker.metrics().prefillSucceeded();
        routed.lease().prefillAnswered();
        if (decodeBody != null) {
            stream.forward(legs.decode(), decodeBody, RequestTrace.Leg.DECODE);
        }
        if (!stream.routing()) {
            // Envoy has the decode and the prefill is over: no leg is built any more, and a held stream keeps only its
            // aborts (not the client's body the prefill call's handlers hold, nor the leg bodies).
            plan = new LegPlan(plan.schedule(), null, null, plan.prefillAbort(), plan.decodeAbort());
            prefillCall = null;
        }
    }

    private void prefillFailed(LegFailure failure) {
        prefillTrace.failed(failure.metricStatus() + " " + failure.metricCode());
        picker.metrics().prefillFailed(failure.metricStatus(), failure.metricCode());
        LOG.warn("request {}: prefill on {} failed: {}", requestId, routed.decision().prefill().id(),
                failure.message());
        aborter.abort(prefillCall.leg(), plan.prefillAbort());
        if (stream.routing()) {
            if (failure.answeredError()) {
                routed.lease().computeRefused(); // it computed none of the prompt, and no decode was sent to fetch any
            }
            ApiError error = ApiError.of(failure.clientStatus(), failure.message(), "prefill_failed")
                    .withHeader(SpecHeaders.ERROR_PD_PREFILL);
            stream.fail(failure.clientStatus(), error, PickerStream.PREFILL_FAILED);
        } else {
            // Concurrent legs, the decode already forwarded: the response headers, if they come, fail the request.
            prefillFailedLate = true;
        }
    }
}
