package io.pdgateway.server.front;

import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import java.util.List;
import java.util.Locale;

/**
 * The HTTP/1.1 rules the front checks before it reads anything else of a request. A request that breaks one is
 * answered 400 and its connection closed, since where the next request on it starts is then in doubt:
 * <ul>
 *   <li>RFC 9112 §6.1: a Transfer-Encoding other than exactly {@code chunked} (Netty reads {@code chunked, identity}
 *       as chunked where another parser might not). {@link StrictFramingDecoder} refuses these while decoding, so
 *       they get here only where Vert.x's own decoder read the request: a connection's first with h2c on
 *       ({@link FirstRequestFraming}); Content-Length beside Transfer-Encoding never does (Netty drops the
 *       Content-Length).</li>
 *   <li>RFC 9112 §3.2: an HTTP/1.1 request without a Host header, or any request with more than one.</li>
 * </ul>
 * HTTP/2 has neither header (its framing is its own), so its requests pass.
 */
final class HttpRules {
    private static final String CHUNKED = "chunked";

    private HttpRules() {}

    /** The 400 a request earns for its framing or Host header, or null when it is sound. */
    static ApiError violation(HttpServerRequest req) {
        if (req.version() == HttpVersion.HTTP_2) {
            return null;
        }
        List<String> encodings = req.headers().getAll(HttpHeaders.TRANSFER_ENCODING);
        if (!encodings.isEmpty() && (encodings.size() > 1 || !CHUNKED.equalsIgnoreCase(encodings.get(0).strip()))) {
            return ApiError.of(400, "Transfer-Encoding must be exactly \"chunked\" (RFC 9112 section 6.1)",
                    "invalid_request");
        }
        int hosts = req.headers().getAll(HttpHeaders.HOST).size();
        if (hosts > 1 || (hosts == 0 && req.version() == HttpVersion.HTTP_1_1)) {
            return ApiError.of(400, "an HTTP/1.1 request needs exactly one Host header (RFC 9112 section 3.2)",
                    "invalid_request");
        }
        return null;
    }

    /**
     * Whether a POST body declared with this Content-Type is read as JSON: application/json or any +json type, with
     * any parameters (charset), or no Content-Type at all (clients that post raw bytes). Any other declared type is
     * refused, as vLLM and SGLang refuse it (FastAPI reads only JSON-typed bodies as JSON): curl's -d declares a form
     * unless told otherwise. Forms and text/plain are also what a web page may POST cross-site without asking, so
     * refusing them keeps a browser from driving a gateway that has no API keys.
     */
    static boolean acceptsAsJson(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return true;
        }
        int semicolon = contentType.indexOf(';');
        String type = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip()
                .toLowerCase(Locale.ROOT);
        return type.equals("application/json") || (type.startsWith("application/") && type.endsWith("+json"));
    }
}
