package io.pdgateway.server.exchange;

import io.pdgateway.server.http.OnEventLoop;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.RequestOptions;

/**
 * One small control request to a pod (its /server_info, an /abort_request) with a deadline on the whole call:
 * connecting, sending and reading the answer. Past the deadline the call fails and its connection closes. Not for
 * inference legs, whose bounds are the prefill timeout and the decode watchdog.
 */
final class PodCall {
    /** The pod's answer. */
    record Answer(int status, byte[] body) {}

    private PodCall() {}

    /** @param body null for a request without one */
    static Future<Answer> send(Vertx vertx, HttpClient client, RequestOptions options, byte[] body, long timeoutMs) {
        return OnEventLoop.call(vertx, () -> sendOnContext(vertx, client, options, body, timeoutMs));
    }

    private static Future<Answer> sendOnContext(Vertx vertx, HttpClient client, RequestOptions options, byte[] body,
            long timeoutMs) {
        Promise<Answer> result = Promise.promise();
        long timer = vertx.setTimer(timeoutMs, id -> result.tryFail(options.getURI() + " did not answer within "
                + timeoutMs + " ms"));
        client.request(options)
                .compose(request -> {
                    result.future().onFailure(late -> request.reset());
                    return body == null ? request.send() : request.send(Buffer.buffer(body));
                })
                .compose(response -> response.body().map(answer -> new Answer(response.statusCode(), answer.getBytes())))
                .onComplete(answer -> {
                    vertx.cancelTimer(timer);
                    if (answer.succeeded()) {
                        result.tryComplete(answer.result());
                    } else {
                        result.tryFail(answer.cause());
                    }
                });
        return result.future();
    }
}
