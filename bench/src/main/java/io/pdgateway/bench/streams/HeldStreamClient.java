package io.pdgateway.bench.streams;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Opens streaming chat completions against the gateway and reports each one at its first token, leaving the stream
 * open (the pods hold it), or at its error answer. HTTP/2 with prior knowledge (h2c), 100 streams a connection: the
 * machine allows 20,000 open files per process, and 10,000 HTTP/1.1 clients plus 10,000 pod connections would not
 * fit in the gateway's. Every open resolves by its deadline.
 */
final class HeldStreamClient implements AutoCloseable {
    /** A token chunk's delta carries content; the preamble's is empty. */
    private static final Pattern FIRST_TOKEN = Pattern.compile("\"delta\":\\{\"content\":\"[^\"]");
    private static final Pattern ERROR_CODE = Pattern.compile("\"code\":\"([a-z_]+)\"");
    private static final Pattern MESSAGE = Pattern.compile("\"message\":\"([^\"]*)\"");

    /** What one stream got: its status, whether a token arrived, and for an error its Retry-After and code. */
    record Outcome(int status, boolean firstToken, String retryAfter, String errorCode, String failure) {
        static Outcome failed(String why) {
            return new Outcome(0, false, null, null, why);
        }
    }

    private final Vertx vertx;
    private final HttpClient client;
    private final Context context;
    private final int port;

    /** @param connections HTTP/2 connections to the gateway at most (each carries up to 100 streams) */
    HeldStreamClient(Vertx vertx, int port, int connections) {
        this.vertx = vertx;
        this.port = port;
        this.client = vertx.createHttpClient(new HttpClientOptions().setProtocolVersion(HttpVersion.HTTP_2)
                .setHttp2ClearTextUpgrade(false).setConnectTimeout(10_000).setDefaultHost("127.0.0.1"),
                new PoolOptions().setHttp2MaxSize(connections).setMaxWaitQueueSize(-1));
        this.context = vertx.getOrCreateContext();
    }

    /** Opens one stream; the future completes at its first token, at its error answer, or at the deadline. */
    Future<Outcome> open(Buffer body, long deadlineMillis) {
        Promise<Outcome> result = Promise.promise();
        context.runOnContext(v -> {
            long timer = vertx.setTimer(deadlineMillis, id -> result.tryComplete(Outcome.failed("no first token within "
                    + deadlineMillis + " ms")));
            result.future().onComplete(done -> vertx.cancelTimer(timer));
            client.request(new RequestOptions().setMethod(HttpMethod.POST).setPort(port)
                            .setURI("/v1/chat/completions").putHeader(HttpHeaders.CONTENT_TYPE, "application/json"))
                    .compose(request -> request.send(body))
                    .onFailure(err -> result.tryComplete(Outcome.failed(String.valueOf(err.getMessage()))))
                    .onSuccess(response -> {
                        if (response.statusCode() != 200) {
                            response.body().onComplete(b -> result.tryComplete(new Outcome(response.statusCode(), false,
                                    response.getHeader("Retry-After"), b.succeeded() ? code(b.result()) : null,
                                    b.succeeded() ? message(b.result()) : null)));
                            return;
                        }
                        StringBuilder seen = new StringBuilder();
                        response.handler(chunk -> {
                            if (result.future().isComplete()) {
                                return; // held: later bytes (none, from a holding pod) are not looked at
                            }
                            seen.append(chunk.toString(StandardCharsets.UTF_8));
                            if (FIRST_TOKEN.matcher(seen).find()) {
                                result.tryComplete(new Outcome(200, true, null, null, null));
                            }
                        });
                        response.exceptionHandler(err -> result.tryComplete(Outcome.failed("stream broke: "
                                + err.getMessage())));
                        response.endHandler(end -> result.tryComplete(Outcome.failed("stream ended before a token")));
                    });
        });
        return result.future();
    }

    /** The error's message, abbreviated: what the run's summary shows of an unexpected answer. */
    private static String message(Buffer body) {
        String text = body.toString(StandardCharsets.UTF_8);
        Matcher m = MESSAGE.matcher(text);
        String message = m.find() ? m.group(1) : text;
        return message.length() > 80 ? message.substring(0, 80) : message;
    }

    private static String code(Buffer body) {
        Matcher m = ERROR_CODE.matcher(body.toString(StandardCharsets.UTF_8));
        return m.find() ? m.group(1) : null;
    }

    /** Closes every connection: the gateway sees each held stream's client leave. */
    @Override
    public void close() {
        client.close().await();
    }
}
