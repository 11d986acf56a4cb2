package io.pdgateway.server.exchange;

import io.pdgateway.core.config.PdKnobs;
import io.pdgateway.engine.AbortCall;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a pod drop a leg the gateway gave up on. With an abort call (SGLang's {@code /abort_request}) the pod is asked
 * first, within {@code decodeAbortTimeout} and once more after {@code decodeAbortRetryDelay} when that fails; the leg's
 * connection closes once the asking is over. Without one, closing the connection is how engines learn it (vLLM,
 * TensorRT-LLM). Runs on the exchange's event loop; never blocks it.
 */
public final class LegAborter {
    private static final Logger LOG = LoggerFactory.getLogger(LegAborter.class);

    private final Upstreams up;
    private final PdKnobs knobs;
    private final String requestId;

    public LegAborter(Upstreams up, PdKnobs knobs, String requestId) {
        this.up = up;
        this.knobs = knobs;
        this.requestId = requestId;
    }

    /** Abandons the leg if it still runs, and makes its pod drop it. */
    public void abort(UpstreamLeg leg, AbortCall call) {
        if (leg == null || !leg.abandon()) {
            return;
        }
        if (call == null || !leg.sent()) {
            leg.reset();
            return;
        }
        ask(leg, call).recover(first -> {
            LOG.debug("request {}: abort on {} failed ({}), retrying once", requestId, leg.pod().id(), first.getMessage());
            Promise<Void> later = Promise.promise();
            up.vertx().setTimer(millis(knobs.decodeAbortRetryDelay()), id -> ask(leg, call).onComplete(later));
            return later.future();
        }).onComplete(done -> {
            if (done.failed()) {
                LOG.warn("request {}: {} did not confirm {}: {}", requestId, leg.pod().id(), call.path(),
                        done.cause().getMessage());
            }
            leg.reset();
        });
    }

    private Future<Void> ask(UpstreamLeg leg, AbortCall call) {
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost(leg.pod().ip())
                .setPort(leg.pod().port()).setURI(call.path())
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json").putHeader("X-Request-Id", requestId);
        return PodCall.send(up.vertx(), up.client(), options, call.body(), millis(knobs.decodeAbortTimeout()))
                .compose(answer -> answer.status() / 100 == 2 ? Future.<Void>succeededFuture()
                        : Future.<Void>failedFuture("answered " + answer.status()));
    }

    /** Knob seconds as timer milliseconds; Vert.x timers need at least 1 ms. */
    public static long millis(double seconds) {
        return Math.max(1, Math.round(seconds * 1000));
    }
}
