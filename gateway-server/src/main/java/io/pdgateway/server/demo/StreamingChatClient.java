package io.pdgateway.server.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.core.spec.SpecHeaders;
import io.pdgateway.engine.JsonBodies;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.nio.charset.StandardCharsets;

/** Sends one streaming chat completion and times what comes back, the way a user's client would see it. */
public final class StreamingChatClient {
    private final HttpClient client;
    private final String host;
    private final int port;
    private final String model;

    public StreamingChatClient(HttpClient client, String host, int port, String model) {
        this.client = client;
        this.host = host;
        this.port = port;
        this.model = model;
    }

    public Future<RequestResult> send(String prompt, int maxTokens, long timeoutMillis) {
        ObjectNode body = JsonNodeFactory.instance.objectNode();
        body.put("model", model);
        body.putArray("messages").addObject().put("role", "user").put("content", prompt);
        body.put("max_tokens", maxTokens);
        body.put("stream", true);
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost(host).setPort(port)
                .setURI("/v1/chat/completions").setIdleTimeout(timeoutMillis)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
        long start = System.nanoTime();
        Promise<RequestResult> result = Promise.promise();
        client.request(options)
                .compose(req -> req.send(Buffer.buffer(JsonBodies.write(body))))
                .onFailure(err -> result.tryComplete(new RequestResult("unrouted", false, -1, -1, err.toString())))
                .onSuccess(response -> {
                    String prefill = response.getHeader(SpecHeaders.PREFILL_TARGET_POD);
                    String target = response.getHeader(SpecHeaders.TARGET_POD);
                    boolean pd = prefill != null;
                    String route = pd ? "pd " + prefill + " -> " + target : target == null ? "unrouted" : "standard " + target;
                    if (response.statusCode() != 200) {
                        response.body().onComplete(b -> result.tryComplete(new RequestResult(route, !pd, -1, -1,
                                "HTTP " + response.statusCode())));
                        return;
                    }
                    SseTimer timer = new SseTimer(start);
                    response.handler(timer::accept);
                    response.exceptionHandler(err -> result.tryComplete(new RequestResult(route, !pd, timer.ttftMillis(),
                            timer.tpotMillis(), "stream broke: " + err)));
                    response.endHandler(v -> result.tryComplete(new RequestResult(route, !pd, timer.ttftMillis(),
                            timer.tpotMillis(), timer.error())));
                });
        return result.future();
    }

    /** Splits an SSE byte stream into events and times the content-bearing ones. */
    private static final class SseTimer {
        private final long start;
        private final StringBuilder pending = new StringBuilder();
        private long first = -1;
        private long last = -1;
        private int tokens;
        private boolean done;
        private String error;

        SseTimer(long start) {
            this.start = start;
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
                    }
                    last = now;
                    tokens++;
                }
            } catch (Exception e) {
                error = "malformed SSE event: " + data;
            }
        }

        double ttftMillis() {
            return first < 0 ? -1 : (first - start) / 1e6;
        }

        double tpotMillis() {
            return tokens < 2 ? -1 : (last - first) / 1e6 / (tokens - 1);
        }

        String error() {
            if (error != null) {
                return error;
            }
            return done ? null : "stream ended without [DONE]";
        }
    }
}
