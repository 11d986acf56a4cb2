package io.pdgateway.server.exchange;

import io.pdgateway.server.front.ApiError;
import io.pdgateway.server.http.TurnWrites;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;

/**
 * What the client of one exchange sees: the pod's head, held back until the first body chunk (design.md §2: until
 * then a failure can still be a clean error), the relayed chunks (a turn's gathered into one write:
 * {@link TurnWrites}), an OpenAI-style error, or a stream cut short.
 */
final class ClientAnswer {
    private final HttpServerResponse out;
    private final TurnWrites writes;

    ClientAnswer(HttpServerResponse out) {
        this.out = out;
        this.writes = new TurnWrites(out);
    }

    /** Anything reached the client: from now on a failure can only cut the answer short. */
    boolean started() {
        return out.headWritten();
    }

    void write(HttpClientResponse from, Buffer chunk) {
        head(from);
        writes.write(chunk);
    }

    void end(HttpClientResponse from) {
        head(from);
        Buffer chunks = writes.take();
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
        Buffer chunks = writes.take();
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
