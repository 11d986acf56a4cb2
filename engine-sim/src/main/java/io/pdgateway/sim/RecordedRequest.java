package io.pdgateway.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.pdgateway.sim.api.JsonCodec;
import java.util.Locale;
import java.util.Map;

/**
 * One request as a simulated pod received it, for tests to assert on (okhttp MockWebServer's idea).
 *
 * @param method  HTTP method, upper case
 * @param path    request path without the query string
 * @param headers header names lower-cased; repeated headers joined with ", "
 * @param body    the body exactly as received, decoded as UTF-8 (empty when there was none)
 */
public record RecordedRequest(String method, String path, Map<String, String> headers, String body) {

    public RecordedRequest {
        headers = Map.copyOf(headers);
    }

    /** A header value by case-insensitive name, or null. */
    public String header(String name) {
        return headers.get(name.toLowerCase(Locale.ROOT));
    }

    /** The body parsed as JSON; fails with IllegalStateException when it is not JSON. */
    public JsonNode json() {
        try {
            return JsonCodec.MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("body of " + method + " " + path + " is not JSON: " + body, e);
        }
    }
}
