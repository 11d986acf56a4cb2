package io.pdgateway.server.exchange;

import io.pdgateway.core.model.Pod;
import io.pdgateway.server.upstream.PodSlot;
import io.vertx.core.Future;
import io.netty.buffer.Unpooled;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.internal.buffer.BufferInternal;

/**
 * One HTTP request from the gateway to a pod (a prefill, decode or single leg), and whether it still runs there.
 * Used on its exchange's event loop only.
 *
 * <p>The leg keeps its Vert.x request only while it may have to be stopped: once it finished or was reset it lets go
 * of it. A prefill leg lives as long as its request's attempt, and its finished HTTP request held the response, its
 * headers and body buffer, the pool lease and Vert.x's per-request context: about 4 KB of every held stream's heap
 * (issue 16, {@code bench streams --class-histogram}).
 */
public final class UpstreamLeg {
    private enum State { RUNNING, FINISHED, ABANDONED }

    private final Pod pod;
    private final PodSlot slot;
    private HttpClientRequest request;
    private boolean sent;
    private State state = State.RUNNING;

    UpstreamLeg(Pod pod) {
        this(pod, PodSlot.NONE);
    }

    /** @param slot the pod connection slot this leg holds, given back when its HTTP exchange is over */
    UpstreamLeg(Pod pod, PodSlot slot) {
        this.pod = pod;
        this.slot = slot;
    }

    Pod pod() {
        return pod;
    }

    /** Sends the body; the future gets the pod's response head. A leg abandoned before its connection is never sent. */
    Future<HttpClientResponse> send(HttpClient client, RequestOptions options, byte[] body) {
        Future<HttpClientResponse> response = client.request(options).compose(opened -> {
            // Failures reach the leg through the response future; without a handler Vert.x also logs each one at
            // ERROR, a line per cancelled request (757 lines under an HTTP/2 rapid reset, issue 17).
            opened.exceptionHandler(ignored -> { });
            if (state != State.RUNNING) {
                opened.reset();
                return Future.failedFuture("leg abandoned before it was sent");
            }
            request = opened;
            sent = true;
            // Wrapped, not copied: the body is never changed once built, and a 200 KB prompt was copied per leg.
            return opened.send(BufferInternal.buffer(Unpooled.wrappedBuffer(body)));
        });
        // The slot is the connection's: free again once the exchange on it is over, however it ends (the answer's
        // end, a failure, a reset), whatever the leg's owner still does with the answer.
        response.onComplete(head -> {
            if (head.failed()) {
                slot.release();
                return;
            }
            try {
                head.result().end().onComplete(end -> slot.release());
            } catch (IllegalStateException alreadyEnded) {
                slot.release();
            }
        });
        return response;
    }

    /** True once the request went out: from then on the pod may be working on it. */
    boolean sent() {
        return sent;
    }

    /** Still in flight at the pod: neither answered to the end nor given up. */
    boolean running() {
        return state == State.RUNNING;
    }

    /** Its response ended (or its connection failed): nothing left to stop. */
    void finished() {
        if (state == State.RUNNING) {
            state = State.FINISHED;
            request = null;
        }
    }

    /** Given up: no handler of this leg acts any more. Returns false when it was not running. */
    boolean abandon() {
        if (state != State.RUNNING) {
            return false;
        }
        state = State.ABANDONED;
        return true;
    }

    /** Closes the leg's connection (HTTP/1.1), which makes every engine drop the request. */
    void reset() {
        if (request != null) {
            request.reset();
            request = null;
        }
    }
}
