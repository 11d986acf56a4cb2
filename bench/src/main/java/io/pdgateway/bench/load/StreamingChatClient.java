package io.pdgateway.bench.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.core.spec.SpecHeaders;
import io.pdgateway.engine.JsonBodies;
import io.pdgateway.workload.run.ChunkGapSink;
import io.pdgateway.workload.run.RequestResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends one streaming chat completion and times what comes back, the way a user's client would see it: time to the
 * first byte, to the first token, between tokens, to the end. Every request ends: a stall or a hang becomes a
 * timeout error after {@code timeoutMillis}, never a run that does not finish.
 */
public final class StreamingChatClient implements ChatTarget {
    /**
     * Connections per endpoint: an open-loop run keeps one per request in flight, and a pool that is too small would
     * queue requests inside the client, where the server cannot be blamed for the wait.
     */
    static final int MAX_CONNECTIONS = 4_096;
    /** A server that does not accept a connection within this time is down, not slow. */
    static final int CONNECT_TIMEOUT_MS = 10_000;
    /** Vert.x's default event-loop count (two per core): requests spread over every event loop. */
    static final int CONTEXTS = VertxOptions.DEFAULT_EVENT_LOOP_POOL_SIZE;

    private final Vertx vertx;
    private final HttpClient client;
    /**
     * Event-loop contexts the requests are spread over. A request must be sent from a Vert.x context: its response
     * handlers are then set on the thread that delivers the response, before any of its body can arrive (set from
     * another thread, a fast answer can end before its handler exists).
     */
    private final List<Context> contexts;
    private final AtomicInteger nextContext = new AtomicInteger();
    private final Endpoint endpoint;
    private final String model;
    private final Map<String, String> headers;

    /** @param headers sent with every request (a {@code routing-strategy}, an {@code Authorization}, ...) */
    public StreamingChatClient(Vertx vertx, HttpClient client, Endpoint endpoint, String model,
            Map<String, String> headers) {
        this.vertx = vertx;
        this.client = client;
        this.endpoint = endpoint;
        this.model = model;
        this.headers = Map.copyOf(headers);
        List<Context> created = new ArrayList<>();
        for (int i = 0; i < CONTEXTS; i++) {
            // From a plain thread each call makes a new event-loop context, on the next event loop.
            created.add(vertx.getOrCreateContext());
        }
        this.contexts = List.copyOf(created);
    }

    /** A client with its own connection pool, sized for open-loop load; {@link #close()} releases it. */
    public static StreamingChatClient open(Vertx vertx, Endpoint endpoint, String model, Map<String, String> headers) {
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(CONNECT_TIMEOUT_MS),
                new PoolOptions().setHttp1MaxSize(MAX_CONNECTIONS).setMaxWaitQueueSize(-1));
        return new StreamingChatClient(vertx, client, endpoint, model, headers);
    }

    @Override
    public Future<Void> close() {
        return client.close();
    }

    @Override
    public Endpoint endpoint() {
        return endpoint;
    }

    @Override
    public Buffer body(String prompt, int maxTokens) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("model", model);
        body.putArray("messages").addObject().put("role", "user").put("content", prompt);
        body.put("max_tokens", maxTokens);
        body.put("stream", true);
        return Buffer.buffer(JsonBodies.write(body));
    }

    @Override
    public Future<RequestResult> send(Buffer body, int promptTokens, String sessionKey, long timeoutMillis,
            double startMillis, double lagMillis, ChunkGapSink gaps) {
        return sendTimedFrom(System.nanoTime(), body, promptTokens, sessionKey, timeoutMillis, startMillis, lagMillis,
                gaps);
    }

    /**
     * As {@link #send}, with every latency timed from {@code startNanos} ({@link System#nanoTime()}) rather than from
     * now: the decode leg of a request whose prefill leg the caller already ran is timed from the prefill's start.
     */
    public Future<RequestResult> sendTimedFrom(long startNanos, Buffer body, int promptTokens, String sessionKey,
            long timeoutMillis, double startMillis, double lagMillis, ChunkGapSink gaps) {
        Promise<RequestResult> result = Promise.promise();
        Context context = contexts.get(Math.floorMod(nextContext.getAndIncrement(), contexts.size()));
        context.runOnContext(v -> sendOnContext(startNanos, body, promptTokens, sessionKey, timeoutMillis, startMillis,
                lagMillis, gaps, result));
        return result.future();
    }

    private void sendOnContext(long start, Buffer body, int promptTokens, String sessionKey, long timeoutMillis,
            double startMillis, double lagMillis, ChunkGapSink gaps, Promise<RequestResult> result) {
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost(endpoint.host())
                .setPort(endpoint.port()).setSsl(endpoint.ssl()).setURI(endpoint.chatPath()).setIdleTimeout(timeoutMillis)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
        headers.forEach(options::putHeader);
        if (sessionKey != null) {
            options.putHeader(SpecHeaders.SESSION_KEY, sessionKey);
        }
        SseTimer timer = new SseTimer(start, gaps);
        client.request(options)
                .compose(request -> {
                    // Armed on the request's own context, so the timeout and the stream callbacks never race.
                    long deadline = vertx.setTimer(timeoutMillis, id -> {
                        if (result.tryComplete(timer.result(startMillis, lagMillis, promptTokens,
                                "timeout: no end after " + timeoutMillis + " ms"))) {
                            request.reset();
                        }
                    });
                    result.future().onComplete(ar -> vertx.cancelTimer(deadline));
                    return request.send(body);
                })
                .onFailure(err -> result.tryComplete(RequestResult.failure(startMillis, lagMillis, promptTokens,
                        // An idle timeout (no response head in time) is a timeout, whoever noticed it first.
                        (err instanceof TimeoutException ? "timeout: " : "connection: ") + err.getMessage())))
                .onSuccess(response -> {
                    timer.headers(response.statusCode(), response.getHeader(SpecHeaders.PREFILL_TARGET_POD),
                            response.getHeader(SpecHeaders.TARGET_POD));
                    if (response.statusCode() != 200) {
                        response.body().onComplete(b -> result.tryComplete(timer.result(startMillis, lagMillis,
                                promptTokens, "http " + response.statusCode() + ": " + errorMessage(b.result()))));
                        return;
                    }
                    response.handler(timer::accept);
                    response.exceptionHandler(err -> result.tryComplete(timer.result(startMillis, lagMillis, promptTokens,
                            (err instanceof TimeoutException ? "timeout: stalled mid-stream, " : "stream broke: ")
                                    + err.getMessage())));
                    response.endHandler(v -> result.tryComplete(timer.result(startMillis, lagMillis, promptTokens,
                            timer.error())));
                });
    }

    private static String errorMessage(Buffer body) {
        if (body == null) {
            return "";
        }
        String text = body.toString(StandardCharsets.UTF_8);
        try {
            JsonNode json = JsonBodies.mapper().readTree(text);
            String message = json.path("error").path("message").asText("");
            return message.isEmpty() ? abbreviate(text) : abbreviate(message);
        } catch (Exception e) {
            return abbreviate(text);
        }
    }

    /** Error tables show the first words of a body; a whole HTML error page helps nobody there. */
    private static String abbreviate(String text) {
        String line = text.replaceAll("\\s+", " ").trim();
        return line.length() <= 120 ? line : line.substring(0, 120) + "...";
    }

    /** Splits an SSE byte stream into events and times the content-bearing ones. */
    private static final class SseTimer {
        private final long start;
        private final ChunkGapSink gaps;
        private final StringBuilder pending = new StringBuilder();
        private int status;
        private String route = "unrouted";
        private boolean fallback;
        private long headersAt = -1;
        private long first = -1;
        private long last = -1;
        private int tokens;
        private boolean done;
        private String error;

        SseTimer(long start, ChunkGapSink gaps) {
            this.start = start;
            this.gaps = gaps;
        }

        void headers(int status, String prefillPod, String targetPod) {
            this.headersAt = System.nanoTime();
            this.status = status;
            if (prefillPod != null) {
                route = "pd " + prefillPod + " -> " + targetPod;
            } else if (targetPod != null) {
                route = "standard " + targetPod;
                fallback = true;
            }
        }

        void accept(Buffer chunk) {
            long now = System.nanoTime();
            pending.append(chunk.toString(StandardCharsets.UTF_8));
            int end;
            while ((end = pending.indexOf("\n\n")) >= 0) {
                String event = pending.substring(0, end);
                pending.delete(0, end + 2);
                onEvent(event.trim(), now);
            }
        }

        private void onEvent(String event, long now) {
            if (!event.startsWith("data:")) {
                return;
            }
            String data = event.substring(5).trim();
            if (data.equals("[DONE]")) {
                done = true;
                return;
            }
            try {
                JsonNode json = JsonBodies.mapper().readTree(data);
                if (json.has("error")) {
                    error = "stream error: " + json.path("error").path("message").asText();
                    return;
                }
                String content = json.path("choices").path(0).path("delta").path("content").asText("");
                if (!content.isEmpty()) {
                    if (first < 0) {
                        first = now;
                    } else {
                        gaps.gap((now - last) / 1e6);
                    }
                    last = now;
                    tokens++;
                }
            } catch (Exception e) {
                error = "malformed event: " + abbreviate(data);
            }
        }

        String error() {
            if (error != null) {
                return error;
            }
            return done ? null : "truncated: stream ended without [DONE]";
        }

        RequestResult result(double startMillis, double lagMillis, int promptTokens, String failure) {
            long now = System.nanoTime();
            return new RequestResult(startMillis, lagMillis, status, route, fallback, since(headersAt),
                    since(first), tokens < 2 ? -1 : (last - first) / 1e6 / (tokens - 1), (now - start) / 1e6, tokens,
                    promptTokens, failure);
        }

        private double since(long at) {
            return at < 0 ? -1 : (at - start) / 1e6;
        }
    }
}
