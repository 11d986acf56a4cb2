package io.pdgateway.epp;

import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode;
import java.util.Locale;

/**
 * How Envoy hands the picker a request body, which decides when the picker may answer the headers. Envoy 1.34 and
 * later say it on each stream's first message ({@code protocol_config}); for older proxies the picker assumes
 * {@code --ext-proc-body-mode}.
 */
public enum BodyMode {
    /**
     * The body arrives whole, in one message, after the picker answered the headers; Envoy still holds the headers,
     * so the answer to the body may set the destination header and replace the body.
     */
    BUFFERED,
    /**
     * Headers and body chunks arrive without waiting for answers; the picker holds its headers answer back until the
     * body's end, then answers the headers (with the destination) and the body (as one streamed chunk).
     */
    FULL_DUPLEX_STREAMED,
    /**
     * Envoy's half-duplex STREAMED mode: the headers must be answered before the body is seen, so nothing the body
     * says can choose the endpoint. Refused with a 500 that names the modes to configure.
     */
    UNSUPPORTED;

    static BodyMode of(ProcessingMode.BodySendMode mode, BodyMode fallback) {
        return switch (mode) {
            case BUFFERED, BUFFERED_PARTIAL -> BUFFERED;
            case FULL_DUPLEX_STREAMED -> FULL_DUPLEX_STREAMED;
            case STREAMED -> UNSUPPORTED;
            default -> fallback;
        };
    }

    /** The {@code --ext-proc-body-mode} value: buffered or full_duplex_streamed. */
    public static BodyMode parse(String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "buffered" -> BUFFERED;
            case "full_duplex_streamed" -> FULL_DUPLEX_STREAMED;
            default -> throw new IllegalArgumentException("--ext-proc-body-mode must be buffered or full_duplex_streamed, "
                    + "got " + value);
        };
    }
}
