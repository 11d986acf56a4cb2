package io.pdgateway.server.http;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;

/**
 * Relayed chunks that arrive together leave together. Vert.x flushes every write to a connection that is not itself
 * being read, so relaying a pod's burst of SSE events (one socket read holding many, as when an engine catches up or
 * streams fast) chunk by chunk would cost the client connection a chunk encoding, a promise and a send() each: a relay
 * writing so spent 38 % of its CPU in writev (issue 16). The first chunk of an event-loop turn is written at once, so
 * the first token is never held back; the turn's later chunks are gathered and written as one when the turn's I/O is
 * done, as a buffering proxy such as nginx does. Used on the response's event loop.
 */
public final class TurnWrites {
    private final HttpServerResponse out;
    /** Chunks after the first of the current event-loop turn, not yet written; null when none. */
    private Buffer gathered;
    /** Whether a chunk was written in this turn and the turn's end is scheduled to write what gathers after it. */
    private boolean turnOpen;

    public TurnWrites(HttpServerResponse out) {
        this.out = out;
    }

    public void write(Buffer chunk) {
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

    /** What was gathered and not yet written, for the caller to write (before an end or an error): null when none. */
    public Buffer take() {
        Buffer chunks = gathered;
        gathered = null;
        return chunks;
    }

    private void endTurn() {
        turnOpen = false;
        Buffer chunks = take();
        if (chunks != null && !out.ended() && !out.closed()) {
            out.write(chunks);
        }
    }
}
