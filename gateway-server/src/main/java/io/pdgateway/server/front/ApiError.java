package io.pdgateway.server.front;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pdgateway.engine.JsonBodies;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import java.util.function.BiConsumer;

/**
 * An OpenAI-style error: {"error":{"message","type","code","param"}}, all four keys always present (design.md §2).
 *
 * @param extraHeader a spec header to add (x-error-pd-prefill, x-error-pd-decode), or null
 * @param retryAfterSeconds the answer's Retry-After, or 0 for none
 */
public record ApiError(int status, String message, String code, String param, String extraHeader,
        long retryAfterSeconds) {
    /**
     * No error message is longer than this: a message quotes client input (a model name, a header, the path, a JSON
     * token, a key), which can be as long as the request, and an error must not echo it back whole. Callers quote
     * single values shorter still (RoutingService.quoted); this is the bound for every path.
     */
    static final int MAX_MESSAGE_CHARS = 512;

    public ApiError {
        if (message != null && message.length() > MAX_MESSAGE_CHARS) {
            message = message.substring(0, MAX_MESSAGE_CHARS) + "... (" + message.length() + " characters)";
        }
    }

    public static ApiError of(int status, String message, String code) {
        return new ApiError(status, message, code, null, null, 0);
    }

    public ApiError withParam(String name) {
        return new ApiError(status, message, code, name, extraHeader, retryAfterSeconds);
    }

    public ApiError withHeader(String header) {
        return new ApiError(status, message, code, param, header, retryAfterSeconds);
    }

    /** This error with a Retry-After of {@code seconds} (0: none). */
    public ApiError withRetryAfter(long seconds) {
        return new ApiError(status, message, code, param, extraHeader, seconds);
    }

    /** OpenAI's error type for the status (as upstream maps it). */
    public String type() {
        return switch (status) {
            case 400, 403, 404, 405, 408, 413, 414, 415, 422, 431 -> "invalid_request_error";
            case 401 -> "authentication_error";
            case 429 -> "rate_limit_error";
            case 503 -> "overloaded_error";
            default -> "api_error";
        };
    }

    /**
     * Writes this error's status and headers ({@link #forEachHeader}) on a response that has sent nothing yet; returns
     * it, for the body.
     */
    public HttpServerResponse head(HttpServerResponse response) {
        response.setStatusCode(status);
        forEachHeader(response::putHeader);
        return response;
    }

    /** This error's headers, by name and value: its content type, Retry-After when set, its spec header when set. */
    public void forEachHeader(BiConsumer<String, String> header) {
        header.accept(HttpHeaders.CONTENT_TYPE.toString(), "application/json");
        if (retryAfterSeconds > 0) {
            header.accept("Retry-After", Long.toString(retryAfterSeconds));
        }
        if (extraHeader != null) {
            header.accept(extraHeader, "true");
        }
    }

    public Buffer body() {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        ObjectNode error = root.putObject("error");
        error.put("message", message);
        error.put("type", type());
        error.put("code", code);
        error.put("param", param);
        return Buffer.buffer(JsonBodies.write(root));
    }
}
