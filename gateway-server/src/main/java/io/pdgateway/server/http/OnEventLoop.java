package io.pdgateway.server.http;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.util.function.Supplier;

/**
 * Runs a chain of HTTP client calls on a Vert.x event loop. Called from any other thread, a pooled connection can
 * complete the request future at once, so a chain built there attaches the response-body handler from that thread
 * while the pod's answer already arrives on the event loop, and the answer is lost (the call then times out: about 1
 * in 400 calls in tests that call from their own thread). On an event loop every step runs on the connection's loop,
 * in order.
 */
public final class OnEventLoop {
    private OnEventLoop() {}

    public static <T> Future<T> call(Vertx vertx, Supplier<Future<T>> chain) {
        if (Vertx.currentContext() != null) {
            return chain.get();
        }
        Promise<T> result = Promise.promise();
        vertx.runOnContext(v -> chain.get().onComplete(result));
        return result.future();
    }

    /** Runs the action on {@code context}: now when already there, else as its next task (a callback from elsewhere). */
    public static void on(Context context, Runnable action) {
        if (Vertx.currentContext() == context) {
            action.run();
        } else {
            context.runOnContext(v -> action.run());
        }
    }
}
