package io.pdgateway.epp;

import io.pdgateway.server.front.ApiError;
import io.pdgateway.server.front.OpenAiRequestParser;

/**
 * Why the picker refuses a request on its headers alone, before any body arrives: a path it does not route, a missing
 * or wrong API key, a draining gateway, no body at all, or an ext_proc filter that will never send the body. Pure.
 */
final class HeaderChecks {
    /**
     * One refusal.
     *
     * @param reason the failure metric's status
     * @param counted whether it also counts in the front's rejected-request metric (serve counts these the same way)
     */
    record Refusal(ApiError error, String reason, boolean counted) {}

    private HeaderChecks() {}

    /** The refusal, or null when the request may go on to its body. */
    static Refusal refusal(String method, String path, boolean admitted, boolean draining, boolean endOfStream,
            BodyMode mode) {
        boolean api = OpenAiRequestParser.CHAT_PATH.equals(path) || OpenAiRequestParser.COMPLETIONS_PATH.equals(path);
        if (!"POST".equals(method) || !api) {
            return new Refusal(ApiError.of(404, "the endpoint picker routes POST " + OpenAiRequestParser.CHAT_PATH
                    + " and POST " + OpenAiRequestParser.COMPLETIONS_PATH + ", not " + method + " " + path,
                    "not_found"), "not_found", false);
        }
        if (!admitted) {
            return new Refusal(ApiError.of(401, "missing or invalid API key", "invalid_api_key"), "unauthorized", true);
        }
        if (draining) {
            return new Refusal(ApiError.of(503, "the gateway is shutting down; retry on another replica",
                    "gateway_draining"), "gateway_draining", false);
        }
        if (endOfStream) {
            return new Refusal(ApiError.of(400, "the request has no body", "invalid_request_body"), "invalid_body",
                    false);
        }
        if (mode == BodyMode.UNSUPPORTED) {
            return new Refusal(ApiError.of(500, "the endpoint picker needs the request body before it answers the "
                    + "headers: set the ext_proc filter's request_body_mode to BUFFERED or FULL_DUPLEX_STREAMED",
                    "epp_misconfigured"), "epp_misconfigured", false);
        }
        return null;
    }
}
