package io.pdgateway.server.front;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.internal.buffer.BufferInternal;
import java.util.function.Consumer;

/**
 * Reads one request body under three bounds, so no client can make the gateway hold a buffer or a socket for long:
 * a body over PD_GATEWAY_MAX_REQUEST_BODY_BYTES gets 413 (at once when Content-Length says so), one not complete within
 * PD_GATEWAY_REQUEST_BODY_TIMEOUT_SECONDS of its headers gets 408 (a client that stalls or trickles); either answer
 * closes the connection, the rest of the body still on the wire and not worth reading. One that would take the bodies
 * held by all requests past PD_GATEWAY_MAX_HELD_BODY_BYTES ({@link HeldBodies}), counted as its bytes arrive, gets 503
 * with Retry-After once the rest of it has been read and dropped ({@link #heldBodiesFull}). A client that sent
 * {@code Expect: 100-continue} gets its 100 once the headers have passed every check (or the refusal instead). Runs on
 * the request's event loop.
 */
final class BodyReader {
    /** Why a body was refused: the pd_gateway_rejected_requests_total reason. */
    static final String TOO_LARGE = "body_too_large";
    static final String TIMEOUT = "body_timeout";
    /**
     * The most a declared Content-Length reserves before its bytes arrive: a client may declare up to the body limit
     * and send nothing, and must not make the gateway hold megabytes for it. Larger bodies grow past it as they come.
     */
    static final int MAX_PRESIZE_BYTES = 256 * 1024;

    private final Vertx vertx;
    private final HttpServerRequest req;
    private final HeldBodies.Account held;
    private final int limit;
    private final Consumer<String> rejected;
    /**
     * The bytes so far: null until the first of them arrives (a client that declares a body and sends nothing holds
     * no buffer and counts nothing) and once settled (the request's handlers keep this reader for the stream's whole
     * life).
     */
    private Buffer body;
    /** What {@link #body} is counted for in {@link #held}: its capacity or its length, whichever is more. */
    private long counted;
    private final long declared;
    private long timer = -1;
    private boolean settled;

    private BodyReader(Vertx vertx, HttpServerRequest req, HeldBodies.Account held, int limit,
            Consumer<String> rejected, long declared) {
        this.vertx = vertx;
        this.req = req;
        this.held = held;
        this.limit = limit;
        this.rejected = rejected;
        this.declared = declared;
    }

    /**
     * Counts the body as it will be once {@code chunk} is in: the presized buffer when the first bytes arrive, each
     * byte past it as it comes. False, counting nothing, when every request's bodies together would pass the bound.
     */
    private boolean counts(Buffer chunk) {
        long needed = Math.max(presize(), length() + (long) chunk.length());
        if (needed > counted && !held.hold(needed - counted)) {
            return false;
        }
        counted = Math.max(counted, needed);
        if (body == null) {
            body = presize() > 0 ? Buffer.buffer((int) declared) : Buffer.buffer();
        }
        return true;
    }

    /**
     * The buffer's size from Content-Length, or 0 when it grows as the bytes come: a 200 KB body grown by doubling was
     * copied about twice over (issue 16).
     */
    private long presize() {
        return declared > 0 && declared <= Math.min(limit, MAX_PRESIZE_BYTES) ? declared : 0;
    }

    /**
     * @param held the request's account: the body is counted there as its buffer is sized and filled
     * @param onBody gets the whole body
     * @param rejected gets the reason when the body was refused (the client has its answer already)
     */
    static void read(Vertx vertx, HttpServerRequest req, HeldBodies.Account held, int limit, long timeoutMs,
            Consumer<byte[]> onBody, Consumer<String> rejected) {
        String length = req.getHeader(HttpHeaders.CONTENT_LENGTH);
        long declared = length == null ? -1 : parseLong(length);
        BodyReader reader = new BodyReader(vertx, req, held, limit, rejected, declared);
        if (declared > limit) {
            reader.tooLarge();
            return;
        }
        if (expectsContinue(req)) {
            // Every check the headers allow has passed: ask for the body (RFC 9110 §10.1.1). Without this a client
            // that waits for it (curl with a large body) sends the body only after giving up waiting, a second later.
            req.response().writeContinue();
        }
        reader.timer = vertx.setTimer(timeoutMs, id -> reader.refuse(408, "request body not received within "
                + timeoutMs + " ms", "request_timeout", TIMEOUT));
        req.handler(chunk -> {
            if (reader.settled) {
                return;
            }
            if (reader.length() + chunk.length() > limit) {
                reader.tooLarge();
                return;
            }
            if (!reader.counts(chunk)) {
                reader.heldBodiesFull(timeoutMs);
                return;
            }
            reader.body.appendBuffer(chunk);
        });
        req.endHandler(v -> {
            if (!reader.settled) {
                byte[] bytes = reader.bytes();
                reader.settle();
                // The request keeps its handlers for the stream's whole life, and with them this reader.
                req.handler(null);
                req.endHandler(null);
                onBody.accept(bytes);
            }
        });
    }

    private static boolean expectsContinue(HttpServerRequest req) {
        String expect = req.getHeader(HttpHeaders.EXPECT);
        return expect != null && HttpHeaderValues.CONTINUE.contentEqualsIgnoreCase(expect.strip());
    }

    private long length() {
        return body == null ? 0 : body.length();
    }

    /** The body's bytes: its own array when it filled exactly the space Content-Length declared, else a copy. */
    private byte[] bytes() {
        if (body == null) {
            return new byte[0];
        }
        ByteBuf buf = ((BufferInternal) body).getByteBuf();
        if (buf.hasArray() && buf.arrayOffset() == 0 && buf.readerIndex() == 0
                && buf.writerIndex() == buf.array().length) {
            return buf.array();
        }
        return body.getBytes();
    }

    private void tooLarge() {
        refuse(413, "request body exceeds " + limit + " bytes", "request_too_large", TOO_LARGE);
    }

    /**
     * Every request's bodies together are at their bound: this one gets 503 with Retry-After (it can come back once
     * some have gone). A client still sending its body would see its connection reset rather than the answer, so
     * the rest of the body is read and dropped first (within the body timeout), holding no memory.
     */
    private void heldBodiesFull(long timeoutMs) {
        if (!dropBody(HeldBodies.FULL)) {
            return;
        }
        ApiError full = HeldBodies.refusal();
        long drained = vertx.setTimer(timeoutMs, id -> OpenAiFront.respondAndClose(req, full));
        req.handler(dropped -> { });
        req.endHandler(v -> {
            vertx.cancelTimer(drained);
            OpenAiFront.respondAndClose(req, full);
        });
    }

    private void refuse(int status, String message, String code, String reason) {
        if (dropBody(reason)) {
            // HTTP/1.1 keeps a connection whose request is unfinished; HTTP/2 streams end on their own.
            OpenAiFront.respondAndClose(req, ApiError.of(status, message, code));
        }
    }

    /** Refused: settles without a body, none of it kept or counted; false when already settled. */
    private boolean dropBody(String reason) {
        if (settled) {
            return false;
        }
        settle();
        held.release();
        rejected.accept(reason);
        return true;
    }

    private void settle() {
        settled = true;
        body = null;
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    private static long parseLong(String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
