package io.pdgateway.server.exchange;

import io.pdgateway.server.front.ApiError;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;

/**
 * What the client of one exchange sees: the pod's head, held back until the first body chunk (design.md §2: until
 * then a failure can still be a clean error), the relayed chunks, an OpenAI-style error, or a stream cut short.
 * <p>
 * Chunks that arrive together leave together. Vert.x flushes every write to a connection that is not itself being
 * read, so relaying a pod's burst of SSE events (one socket read holding many, as when an engine catches up or
 * streams fast) chunk by chunk would cost the client connection a chunk encoding, a promise and a send() each. The
 * first chunk of an event-loop turn is written at once, so the first token is never held back; the turn's later
 * chunks are gathered and written as one when the turn's I/O is done, as a buffering proxy such as nginx does.
 */
final class ClientAnswer {
    private final HttpServerResponse out;
    /** Chunks after the first of the current event-loop turn, not yet written; null when none. */
    private Buffer gathered;
    /** Whether a chunk was written in this turn and the turn's end is scheduled to write what gathers after it. */
    private boolean turnOpen;

    ClientAnswer(HttpServerResponse out) {
        this.out = out;
    }

    /** Anything reached the client: from now on a failure can only cut the answer short. */
    boolean started() {
        return out.headWritten();
    }

    void write(HttpClientResponse from, Buffer chunk) {
        head(from);
        if (turnOpen) {
            if (gathered == null) {
                gathered = Buffer.buffer(chunk.length() * 8);
            }
            gathered.appendBuffer(chunk);
            return;
        }
        out.write(chunk);
        Context turn = Vertx.currentContext();
        if (turn != null) {
            // Tasks run once the loop has handled this turn's ready sockets: every chunk this read holds is in by then.
            turnOpen = true;
            turn.runOnContext(v -> endTurn());
        }
    }

    private void endTurn() {
        turnOpen = false;
        Buffer chunks = takeGathered();
        if (chunks != null && !out.ended() && !out.closed()) {
            out.write(chunks);
        }
    }

    private Buffer takeGathered() {
        Buffer chunks = gathered;
        gathered = null;
        return chunks;
    }


    void end(HttpClientResponse from) {
        head(from);
        Buffer chunks = takeGathered();
        if (chunks == null) {
            out.end();
        } else {
            out.end(chunks);
        }
    }

    /** An OpenAI-style error, unless the answer started (then the caller cuts it short instead). */
    void error(ApiError error) {
        if (out.headWritten() || out.ended() || out.closed()) {
            return;
        }
        error.head(out).end(error.body());
    }

    /** A pod's own error body, marked with a spec header (x-error-pd-prefill). */
    void passThrough(int status, byte[] body, String header) {
        if (out.headWritten() || out.ended() || out.closed()) {
            return;
        }
        out.setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/json").putHeader(header, "true");
        out.end(Buffer.buffer(body));
    }

    /**
     * Ends a started answer so that the client sees it broken, never a clean end of an incomplete answer: a stream
     * gets an error event saying why, then the connection closes without the terminating chunk.
     */
    void cutShort(ApiError error) {
        if (out.ended() || out.closed()) {
            return;
        }
        Buffer chunks = takeGathered();
        if (chunks != null) {
            out.write(chunks); // what the pod did send comes before the error event
        }
        String contentType = out.headers().get(HttpHeaders.CONTENT_TYPE);
        if (contentType != null && contentType.startsWith("text/event-stream")) {
            out.write(Buffer.buffer("data: ").appendBuffer(error.body()).appendString("\n\n"))
                    .onComplete(written -> out.reset());
        } else {
            out.reset();
        }
    }

    private void head(HttpClientResponse from) {
        if (out.headWritten()) {
            return;
        }
        out.setStatusCode(from.statusCode());
        String contentType = from.getHeader(HttpHeaders.CONTENT_TYPE);
        if (contentType != null) {
            out.putHeader(HttpHeaders.CONTENT_TYPE, contentType);
        }
        out.setChunked(true);
    }
}
