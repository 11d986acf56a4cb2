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
 * Reads one request body under two bounds, so no client can make the gateway hold a buffer or a socket for long:
 * a body over PD_GATEWAY_MAX_REQUEST_BODY_BYTES gets 413 (at once when Content-Length says so), one not complete within
 * PD_GATEWAY_REQUEST_BODY_TIMEOUT_SECONDS of its headers gets 408 (a client that stalls or trickles). Either answer
 * closes the connection: the rest of the body is still on the wire and not worth reading. A client that sent
 * {@code Expect: 100-continue} gets its 100 once the headers have passed every check (or the 413 instead). Runs on
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
    private final int limit;
    private final Consumer<String> rejected;
    /** The bytes so far; null once settled (the request's handlers keep this reader for the stream's whole life). */
    private Buffer body;
    private long timer = -1;
    private boolean settled;

    private BodyReader(Vertx vertx, HttpServerRequest req, int limit, Consumer<String> rejected, long declared) {
        this.vertx = vertx;
        this.req = req;
        this.limit = limit;
        this.rejected = rejected;
        // Sized once from Content-Length: a 200 KB body grown by doubling was copied about twice over (issue 16).
        this.body = declared > 0 && declared <= Math.min(limit, MAX_PRESIZE_BYTES) ? Buffer.buffer((int) declared)
                : Buffer.buffer();
    }

    /**
     * @param onBody gets the whole body
     * @param rejected gets the reason when the body was refused (the client has its answer already)
     */
    static void read(Vertx vertx, HttpServerRequest req, int limit, long timeoutMs, Consumer<byte[]> onBody,
            Consumer<String> rejected) {
        String length = req.getHeader(HttpHeaders.CONTENT_LENGTH);
        long declared = length == null ? -1 : parseLong(length);
        BodyReader reader = new BodyReader(vertx, req, limit, rejected, declared);
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
            if (reader.body.length() + chunk.length() > limit) {
                reader.tooLarge();
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

    /** The body's bytes: its own array when it filled exactly the space Content-Length declared, else a copy. */
    private byte[] bytes() {
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

    private void refuse(int status, String message, String code, String reason) {
        if (settled) {
            return;
        }
        settle();
        rejected.accept(reason);
        // HTTP/1.1 keeps a connection whose request is unfinished; HTTP/2 streams end on their own.
        OpenAiFront.respondAndClose(req, ApiError.of(status, message, code));
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
