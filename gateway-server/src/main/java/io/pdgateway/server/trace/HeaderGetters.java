package io.pdgateway.server.trace;

import io.opentelemetry.context.propagation.TextMapGetter;
import io.vertx.core.http.HttpServerRequest;
import java.util.List;
import java.util.Map;

/** The carriers the gateway reads trace context from: a Vert.x request, and a header map (the picker's). Stateless. */
public final class HeaderGetters {
    private HeaderGetters() {}

    public static final TextMapGetter<HttpServerRequest> VERTX = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(HttpServerRequest carrier) {
            return carrier.headers().names();
        }

        @Override
        public String get(HttpServerRequest carrier, String key) {
            return carrier == null ? null : carrier.getHeader(key);
        }
    };

    /** A map whose keys are lower-case header names (HTTP/2 and Envoy spell them so). */
    public static final TextMapGetter<Map<String, String>> LOWER_CASE_MAP = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier == null ? List.of() : carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key.toLowerCase(java.util.Locale.ROOT));
        }
    };
}
