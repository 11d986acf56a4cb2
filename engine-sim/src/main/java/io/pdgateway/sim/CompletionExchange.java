package io.pdgateway.sim;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;

/**
 * One completion request from arrival to its end: streams tokens as the engine produces them (each SSE event its
 * own write, flushed when the step that produced it ends), or answers once at the end; applies the token-count
 * faults; and notices a client that leaves, dropping its sequence from the batch at once.
 *
 * <p>Every exchange ends exactly once, through {@link #end()}: normal end, error, drop or client close.
 * {@link PodContext#openStreams} counts exchanges not yet ended.
 */
final class CompletionExchange implements SequenceListener {

    static final String SSE_CONTENT_TYPE = "text/event-stream; charset=utf-8";
    static final String JSON_CONTENT_TYPE = "application/json";
    private static final String DONE_EVENT = "data: [DONE]\n\n";

    private final HttpServerRequest request;
    private final HttpServerResponse response;
    private final PodContext pod;
    private final CompletionApi api;
    private final long arrivalNanos = System.nanoTime();
    private final StringBuilder text = new StringBuilder();

    private CompletionRequest parsed;
    private FaultConfig faults;
    private ResponseHead head;
    private Sequence sequence;
    private boolean ended;

    CompletionExchange(HttpServerRequest request, PodContext pod, CompletionApi api) {
        this.request = request;
        this.response = request.response();
        this.pod = pod;
        this.api = api;
        pod.openStreams.incrementAndGet();
        response.closeHandler(v -> onConnectionClosed());
    }

    /** Answers with the engine's error body, unless the exchange already ended. */
    void fail(int status, String message) {
        if (ended) {
            return;
        }
        end();
        response.setStatusCode(status).putHeader("content-type", JSON_CONTENT_TYPE)
                .end(JsonCodec.write(pod.personality.errorBody(status, message)));
    }

    /** Closes the TCP connection abruptly: the client sees a truncated response, or none at all. */
    void drop() {
        if (ended) {
            return;
        }
        end();
        pod.connectionsDropped.incrementAndGet();
        request.connection().close();
    }

    /** Hands the request to the engine; tokens arrive through {@link #onToken}. */
    void start(CompletionRequest parsed, FaultConfig faults, KvPlan plan) {
        if (ended) {
            return; // the client left while the KV was on its way
        }
        this.parsed = parsed;
        this.faults = faults;
        // vLLM takes the X-Request-Id header as the base of the response id when the client sends one.
        String base = request.getHeader("x-request-id");
        head = new ResponseHead(api.idPrefix() + (base == null || base.isBlank() ? pod.randomId() : base),
                System.currentTimeMillis() / 1000, parsed.model());
        sequence = new Sequence(parsed.prompt(), parsed.maxTokens(), plan.needsPrefill(), this, arrivalNanos);
        if (parsed.stream()) {
            response.setStatusCode(200).setChunked(true).putHeader("content-type", SSE_CONTENT_TYPE);
        }
        if (faults.hangAfterTokens() == 0) {
            if (parsed.stream()) {
                response.writeHead();
            }
            return; // hangs: headers at most, until the client gives up
        }
        pod.loop.submit(sequence);
    }

    @Override
    public void onToken(int index, String finishReason) {
        if (ended) {
            return;
        }
        String token = pod.text.token(parsed.prompt(), index);
        if (parsed.stream()) {
            if (index == 0) {
                api.streamPreamble(head).forEach(this::send);
            }
            send(api.tokenChunk(head, token, finishReason));
        } else {
            text.append(token);
        }
        int produced = index + 1;
        if (faults.dropAfterTokens() >= 0 && produced >= faults.dropAfterTokens()) {
            pod.loop.cancel(sequence);
            drop();
        } else if (faults.hangAfterTokens() >= 0 && produced >= faults.hangAfterTokens()) {
            pod.loop.cancel(sequence); // leaves the batch; the response stays open until the client gives up
        } else if (finishReason != null) {
            finish(finishReason, produced);
        }
    }

    private void finish(String finishReason, int completionTokens) {
        ObjectNode usage = CompletionApi.usage(parsed.prompt().count(), completionTokens);
        end();
        if (parsed.stream()) {
            if (parsed.includeUsage()) {
                send(api.usageChunk(head, usage));
            }
            response.end(DONE_EVENT);
        } else {
            ObjectNode body = api.completion(head, text.toString(), finishReason, usage);
            pod.personality.completeResponse(parsed, body);
            response.setStatusCode(200).putHeader("content-type", JSON_CONTENT_TYPE).end(JsonCodec.write(body));
        }
    }

    private void send(ObjectNode event) {
        if (!response.closed()) {
            response.write("data: " + JsonCodec.write(event) + "\n\n");
        }
    }

    private void onConnectionClosed() {
        if (ended) {
            return;
        }
        end();
        if (!pod.closing()) {
            pod.streamsCancelled.incrementAndGet();
        }
        if (sequence != null) {
            pod.loop.cancel(sequence);
        }
    }

    private void end() {
        ended = true;
        pod.openStreams.decrementAndGet();
    }
}
