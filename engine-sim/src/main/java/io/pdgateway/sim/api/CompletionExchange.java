package io.pdgateway.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.Sequence;
import io.pdgateway.sim.SequenceListener;
import io.pdgateway.sim.kv.KvPlan;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * One completion request from arrival to its end: streams tokens as the engine produces them (each SSE event its
 * own write, flushed when the step that produced it ends), or answers once at the end; applies the token-count
 * faults; notices a client that leaves, dropping its sequence from the batch at once; and drops the request when
 * the engine is asked to ({@link #abort()}, SGLang's /abort_request).
 *
 * <p>A request for {@code n} completions gets n choices, indexed 0 to n − 1, each its own text, produced in the same
 * steps as one sequence (the simulator does not count them as n in the batch); a streamed one sends each step's token
 * of every choice, and its usage counts all of them, as vLLM's OpenAI server does.
 *
 * <p>Every exchange ends exactly once, through {@link #end()}: normal end, error, drop, abort or client close.
 * {@link PodContext#openStreams} counts exchanges not yet ended; work registered with {@link #onEnd} runs then.
 */
public final class CompletionExchange implements SequenceListener, RequestScope {

    static final String SSE_CONTENT_TYPE = "text/event-stream; charset=utf-8";
    public static final String JSON_CONTENT_TYPE = "application/json";
    static final String FINISHED_ABORT = "abort";
    private static final String DONE_EVENT = "data: [DONE]\n\n";

    private final HttpServerRequest request;
    private final HttpServerResponse response;
    private final PodContext pod;
    private final CompletionApi api;
    private final long arrivalNanos = System.nanoTime();
    /** Each choice's text so far (one until the request is accepted). */
    private StringBuilder[] texts = {new StringBuilder()};
    private final List<Runnable> endActions = new ArrayList<>();

    private CompletionRequest parsed;
    private FaultConfig faults;
    private ResponseHead head;
    private Sequence sequence;
    private int produced;
    private boolean ended;

    CompletionExchange(HttpServerRequest request, PodContext pod, CompletionApi api) {
        this.request = request;
        this.response = request.response();
        this.pod = pod;
        this.api = api;
        pod.openStreams().incrementAndGet();
        response.closeHandler(v -> onConnectionClosed());
    }

    /**
     * The request passed validation: it gets its id (and, with a rid, a place in the pod's live requests that
     * /abort_request looks in). SGLang opens a stream's headers here, before any token.
     */
    void accept(CompletionRequest parsed) {
        this.parsed = parsed;
        texts = new StringBuilder[parsed.choices()];
        for (int c = 0; c < texts.length; c++) {
            texts[c] = new StringBuilder();
        }
        String id = pod.personality().requestId(parsed, request.getHeader("x-request-id"));
        head = new ResponseHead(api.idPrefix() + (id == null || id.isBlank() ? pod.randomId() : id),
                System.currentTimeMillis() / 1000, parsed.model());
        if (parsed.rid() != null) {
            pod.live().put(parsed.rid(), this);
        }
        if (parsed.stream() && pod.personality().streamHeadersFirst()) {
            openStream();
            response.writeHead();
        }
    }

    /** Answers with the engine's error body, or with an error event when the stream's headers already went out. */
    void fail(int status, String message) {
        if (ended) {
            return;
        }
        end();
        if (response.headWritten()) {
            ObjectNode body = pod.personality().errorBody(status, message);
            send(body.has("error") ? body : (ObjectNode) JsonCodec.object().set("error", body));
            response.end(DONE_EVENT);
            return;
        }
        response.setStatusCode(status).putHeader("content-type", JSON_CONTENT_TYPE)
                .end(JsonCodec.write(pod.personality().errorBody(status, message)));
    }

    /** Closes the TCP connection abruptly: the client sees a truncated response, or none at all. */
    void drop() {
        if (ended) {
            return;
        }
        end();
        pod.connectionsDropped().incrementAndGet();
        request.connection().close();
    }

    /** Hands the request to the engine; tokens arrive through {@link #onToken}. */
    void start(FaultConfig faults, KvPlan plan) {
        if (ended) {
            return; // the client left, or the request was aborted, while the KV was on its way
        }
        this.faults = faults;
        sequence = new Sequence(parsed.prompt(), parsed.maxTokens(), plan.needsPrefill(), this, arrivalNanos);
        if (parsed.stream()) {
            openStream();
        }
        if (faults.hangAfterTokens() == 0) {
            pod.hangsInjected().incrementAndGet();
            if (parsed.stream() && !response.headWritten()) {
                response.writeHead();
            }
            return; // hangs: headers at most, until the client gives up
        }
        pod.loop().submit(sequence);
    }

    /**
     * Drops the request as the engine's abort does (SGLang, graceful): it leaves the batch, and the client gets what
     * was generated with finish_reason "abort". False when the request had already ended.
     */
    public boolean abort() {
        if (ended) {
            return false;
        }
        if (sequence != null) {
            pod.loop().cancel(sequence);
        }
        end();
        ObjectNode usage = CompletionApi.usage(parsed.prompt().count(), produced * texts.length);
        if (parsed.stream()) {
            openStream();
            for (int c = 0; c < texts.length; c++) {
                sendAs(c, api.tokenChunk(head, "", FINISHED_ABORT, progress(c)));
            }
            response.end(DONE_EVENT);
        } else {
            response.setStatusCode(200).putHeader("content-type", JSON_CONTENT_TYPE)
                    .end(JsonCodec.write(completion(FINISHED_ABORT, usage)));
        }
        return true;
    }

    @Override
    public void onToken(int index, String finishReason) {
        if (ended) {
            return;
        }
        produced = index + 1;
        if (parsed.stream() && index == 0) {
            for (int c = 0; c < texts.length; c++) {
                for (ObjectNode chunk : api.streamPreamble(head)) {
                    sendAs(c, chunk);
                }
            }
        }
        for (int c = 0; c < texts.length; c++) {
            String token = pod.text().token(parsed.prompt(), c, index);
            texts[c].append(token);
            if (parsed.stream()) {
                sendAs(c, api.tokenChunk(head, token, finishReason, progress(c)));
            }
        }
        if (faults.dropAfterTokens() >= 0 && produced >= faults.dropAfterTokens()) {
            pod.loop().cancel(sequence);
            drop();
        } else if (faults.hangAfterTokens() >= 0 && produced >= faults.hangAfterTokens()) {
            pod.hangsInjected().incrementAndGet();
            pod.loop().cancel(sequence); // leaves the batch; the response stays open until the client gives up
        } else if (finishReason != null) {
            pod.personality().release(parsed, this).onComplete(released -> {
                if (ended) {
                    return;
                }
                if (released.failed()) {
                    fail(500, released.cause().getMessage());
                } else {
                    finish(finishReason, produced);
                }
            });
        }
    }

    private void finish(String finishReason, int completionTokens) {
        ObjectNode usage = CompletionApi.usage(parsed.prompt().count(), completionTokens * texts.length);
        if (parsed.stream()) {
            end();
            if (parsed.includeUsage()) {
                send(api.usageChunk(head, usage));
            }
            response.end(DONE_EVENT);
        } else {
            ObjectNode body = completion(finishReason, usage);
            pod.personality().completeResponse(parsed, body); // before end(): the request's state is still there
            end();
            response.setStatusCode(200).putHeader("content-type", JSON_CONTENT_TYPE).end(JsonCodec.write(body));
        }
    }

    private CompletionApi.Progress progress(int choice) {
        return new CompletionApi.Progress(parsed.prompt().count(), sequence == null ? 0 : sequence.cachedTokens(),
                produced, texts[choice]);
    }

    /** The whole response: choice 0's as the API writes it, with the other choices' added after it. */
    private ObjectNode completion(String finishReason, ObjectNode usage) {
        ObjectNode body = api.completion(head, texts[0].toString(), finishReason, usage, progress(0));
        for (int c = 1; c < texts.length; c++) {
            ObjectNode other = api.completion(head, texts[c].toString(), finishReason, usage, progress(c));
            ObjectNode choice = indexed(other, c);
            if (choice != null) {
                ((ArrayNode) body.get("choices")).add(choice);
            }
        }
        return body;
    }

    /** Sends an event of choice {@code choice}: its one choice indexed so; an event without choices, once. */
    private void sendAs(int choice, ObjectNode event) {
        if (choice == 0) {
            send(event);
        } else if (indexed(event, choice) != null) {
            send(event);
        }
    }

    /** The event's one choice, its index set to {@code choice}; null when the event has no choices list. */
    private static ObjectNode indexed(ObjectNode event, int choice) {
        JsonNode choices = event.get("choices");
        if (choices == null || !choices.isArray() || choices.size() != 1 || !choices.get(0).isObject()) {
            return null;
        }
        ObjectNode only = (ObjectNode) choices.get(0);
        only.put("index", choice);
        return only;
    }

    @Override
    public void onEnd(Runnable action) {
        if (ended) {
            action.run();
        } else {
            endActions.add(action);
        }
    }

    private void openStream() {
        if (!response.headWritten()) {
            response.setStatusCode(200).setChunked(true).putHeader("content-type", SSE_CONTENT_TYPE);
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
            pod.streamsCancelled().incrementAndGet();
        }
        if (sequence != null) {
            pod.loop().cancel(sequence);
        }
    }

    private void end() {
        ended = true;
        pod.openStreams().decrementAndGet();
        if (parsed != null && parsed.rid() != null) {
            pod.live().remove(parsed.rid(), this);
        }
        List<Runnable> actions = new ArrayList<>(endActions);
        endActions.clear();
        actions.forEach(Runnable::run);
    }
}
