package io.pdgateway.server.front;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.impl.VertxHttpRequestDecoder;
import java.util.List;

/**
 * Vert.x's HTTP/1.x request decoder, except that a request carrying both Content-Length and Transfer-Encoding, or a
 * Transfer-Encoding other than exactly {@code chunked}, is a decoding failure (RFC 9112 §6.1: a server may reject
 * the first, must answer 501 or 400 to an unknown coding, and closes the connection after either). Netty's
 * default drops the Content-Length and reads the body as chunked, which keeps the connection open: a proxy in front
 * that framed the same bytes by Content-Length then sees a different next request than the gateway (request
 * smuggling). A decoding failure is answered 400 by {@link UndecodableRequests}, which closes the connection; the
 * request never reaches the front. The header is gone by the time the front sees the request, so this is the one
 * place that can tell.
 *
 * <p>It replaces Vert.x's own decoder in each HTTP/1.x connection's pipeline ({@link ClientConnections}), which ties
 * it to Vert.x's internal class: {@code ClientProtocolIT} fails if an upgrade changes what it relies on.
 */
final class StrictFramingDecoder extends VertxHttpRequestDecoder {
    /** The name Vert.x gives its request decoder in the channel pipeline. */
    static final String PIPELINE_NAME = "httpDecoder";
    private static final String CHUNKED = "chunked";

    StrictFramingDecoder(HttpServerOptions options) {
        super(options);
    }

    /**
     * Netty asks this of every message once its headers are read, before it decides how to frame the body: the one
     * hook that sees the Transfer-Encoding header while refusing still stops the decoder. Refused here rather than
     * by the front, because by the time the front answers, Vert.x has already decoded (and would serve) a request
     * pipelined behind this one.
     */
    @Override
    protected boolean isContentAlwaysEmpty(HttpMessage message) {
        List<String> encodings = message.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING);
        if (!encodings.isEmpty() && (encodings.size() > 1 || !CHUNKED.equalsIgnoreCase(encodings.get(0).strip()))) {
            throw new IllegalArgumentException("Transfer-Encoding other than exactly chunked");
        }
        return super.isContentAlwaysEmpty(message);
    }

    @Override
    protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
        // Netty turns an exception while reading the headers into a failed message: UndecodableRequests answers 400.
        throw new IllegalArgumentException("both Content-Length and Transfer-Encoding");
    }
}
