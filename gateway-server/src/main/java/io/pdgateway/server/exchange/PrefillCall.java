package io.pdgateway.server.exchange;

import io.pdgateway.core.model.Pod;
import io.pdgateway.server.upstream.PodSlot;
import io.vertx.core.http.RequestOptions;
import java.util.function.Consumer;

/**
 * One prefill leg under its deadline (AIBRIX_PREFILL_REQUEST_TIMEOUT, or the profile's prefillRequestTimeout): sends
 * the body, reads the whole answer, and reports exactly once, on the exchange's event loop: the answer's body, or why
 * the leg failed. After {@link #cancel()} it reports nothing. Stopping the pod's work is the exchange's
 * ({@link LegAborter}, on {@link #leg()}). Exchanges and the endpoint picker both run their prefill legs through it.
 */
public final class PrefillCall {
    private record Answer(int status, byte[] body) {}

    private final Upstreams up;
    private final UpstreamLeg leg;
    private final Consumer<byte[]> answered;
    private final Consumer<LegFailure> failed;
    private long timer;
    private boolean settled;

    private PrefillCall(Upstreams up, UpstreamLeg leg, Consumer<byte[]> answered, Consumer<LegFailure> failed) {
        this.up = up;
        this.leg = leg;
        this.answered = answered;
        this.failed = failed;
    }

    /**
     * @param answered gets the answer's body (status 200)
     * @param failed gets why the call failed
     */
    public static PrefillCall start(Upstreams up, Pod pod, RequestOptions options, byte[] body, long timeoutMs,
            Consumer<byte[]> answered, Consumer<LegFailure> failed) {
        return start(up, pod, PodSlot.NONE, options, body, timeoutMs, answered, failed);
    }

    /** As above, on a connection slot of the pod's that the leg gives back when its HTTP exchange is over. */
    static PrefillCall start(Upstreams up, Pod pod, PodSlot slot, RequestOptions options, byte[] body, long timeoutMs,
            Consumer<byte[]> answered, Consumer<LegFailure> failed) {
        PrefillCall call = new PrefillCall(up, new UpstreamLeg(pod, slot), answered, failed);
        call.timer = up.vertx().setTimer(timeoutMs, id -> call.settle(null, LegFailure.timeout(timeoutMs)));
        call.leg.send(up.client(), options, body)
                .compose(response -> response.body().map(b -> new Answer(response.statusCode(), b.getBytes())))
                .onComplete(ar -> {
                    if (call.settled) {
                        return; // timed out or cancelled: already settled
                    }
                    call.leg.finished();
                    if (ar.failed()) {
                        call.settle(null, LegFailure.transport(ar.cause()));
                    } else if (ar.result().status() != 200) {
                        call.settle(null, LegFailure.httpStatus(ar.result().status(), ar.result().body()));
                    } else {
                        call.settle(ar.result().body(), null);
                    }
                });
        return call;
    }

    public UpstreamLeg leg() {
        return leg;
    }

    /** Neither answered, failed nor cancelled yet. */
    public boolean running() {
        return !settled;
    }

    /** The exchange no longer waits for this call: no report will come. */
    public void cancel() {
        if (!settled) {
            settled = true;
            up.vertx().cancelTimer(timer);
        }
    }

    private void settle(byte[] answer, LegFailure failure) {
        if (settled) {
            return;
        }
        settled = true;
        up.vertx().cancelTimer(timer);
        if (failure == null) {
            answered.accept(answer);
        } else {
            failed.accept(failure);
        }
    }
}
