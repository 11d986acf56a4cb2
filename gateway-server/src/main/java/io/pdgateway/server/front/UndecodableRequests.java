package io.pdgateway.server.front;

import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import java.util.function.Consumer;

/**
 * Answers a request whose head could not be decoded: a request line or header block over the listener's limits, or a
 * head that breaks HTTP/1.1's framing rules ({@link StrictFramingDecoder}, Netty's own checks). The status is the one
 * Vert.x gives (414, 431, else 400), now with an OpenAI-format body that names the limit or the fault instead of none,
 * and the connection closes: nothing after an undecodable head can be framed. Each is counted under its reason.
 */
final class UndecodableRequests {
    /** pd_gateway_rejected_requests_total reason, and the error code, of a request line over the limit. */
    static final String URI_TOO_LONG = "uri_too_long";
    /** pd_gateway_rejected_requests_total reason, and the error code, of a header block over the limit. */
    static final String HEADERS_TOO_LARGE = "headers_too_large";

    private UndecodableRequests() {}

    /** @param rejected told each refusal's reason, on the connection's event loop */
    static Handler<HttpServerRequest> answering(HttpServerOptions options, Consumer<String> rejected) {
        return request -> {
            Throwable cause = request.decoderResult().cause();
            String reason = reason(cause);
            rejected.accept(reason);
            OpenAiFront.respondAndClose(request, errorFor(reason, cause, options));
        };
    }

    /** The refusal's pd_gateway_rejected_requests_total reason: a closed set. */
    static String reason(Throwable cause) {
        if (cause instanceof TooLongHttpLineException) {
            return URI_TOO_LONG;
        }
        return cause instanceof TooLongHttpHeaderException ? HEADERS_TOO_LARGE : OpenAiFront.INVALID_HTTP;
    }

    /** The answer: a limit by its name and size; any other fault as the 400 the front gives a bad Host header. */
    static ApiError errorFor(String reason, Throwable cause, HttpServerOptions options) {
        return switch (reason) {
            case URI_TOO_LONG -> ApiError.of(414, "the request line is longer than "
                    + options.getMaxInitialLineLength() + " bytes", URI_TOO_LONG);
            case HEADERS_TOO_LARGE -> ApiError.of(431, "the request headers are larger than "
                    + options.getMaxHeaderSize() + " bytes", HEADERS_TOO_LARGE);
            default -> ApiError.of(400, "malformed HTTP request" + (cause == null || cause.getMessage() == null ? ""
                    : ": " + cause.getMessage()), "invalid_request");
        };
    }
}
