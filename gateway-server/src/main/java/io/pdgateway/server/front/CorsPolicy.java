package io.pdgateway.server.front;

import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.core.spec.SpecHeaders;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which web pages may call the gateway from a browser (CORS, the Fetch standard's cross-origin checks):
 * PD_GATEWAY_CORS_ALLOWED_ORIGINS, "*" for every origin or a comma-separated list of exact origins
 * ({@code scheme://host[:port]}, as a browser's Origin header carries them), read once at start-up. Unset, the gateway
 * answers no origin, as before. A listed origin's requests get Access-Control-Allow-Origin and the response headers a
 * page may read; its preflights (OPTIONS with Access-Control-Request-Method) are answered before any API key is
 * asked for, since a browser sends none with them. An entry that is not an origin (a path, a trailing slash, "*"
 * beside names) stops start-up: it could never match, and a page that the operator meant to let in would fail in
 * the browser with nothing in the gateway's log. Credentials (cookies) are never allowed: clients authenticate with
 * an Authorization header, which a preflight lets through as a header like any other.
 */
public final class CorsPolicy {
    /** A preflight's answer is cached this long by the browser (Starlette's default too; Chromium caps it at 2 h). */
    static final String MAX_AGE_SECONDS = "600";
    /** The gateway's own response headers a page may read; the CORS-safelisted ones (Content-Type) it always may. */
    static final String EXPOSED = String.join(", ", SpecHeaders.REQUEST_ID, SpecHeaders.TARGET_POD,
            SpecHeaders.PREFILL_TARGET_POD, SpecHeaders.ROUTING_STRATEGY, SpecHeaders.PD_DECISION,
            SpecHeaders.ERROR_PD_PREFILL, SpecHeaders.ERROR_PD_DECODE, "retry-after");
    private static final String ANY = "*";
    /** An origin as a browser serializes one: a scheme, "://", and a host with an optional port, nothing after it. */
    private static final Pattern ORIGIN = Pattern.compile("[a-z][a-z0-9+.-]*://[^/?#\\s@]+");
    private static final CorsPolicy NONE = new CorsPolicy(Set.of());

    /** Lower case: a browser sends scheme and host in lower case, an operator may not type them so. */
    private final Set<String> origins;
    /** "*" is the whole setting: every origin, answered with "*". */
    private final boolean anyOrigin;

    private CorsPolicy(Set<String> origins) {
        this.origins = Set.copyOf(origins);
        this.anyOrigin = origins.contains(ANY);
    }

    /** The policy the settings ask for; refuses (IllegalArgumentException, for start-up) an entry no browser sends. */
    public static CorsPolicy load(GatewaySettings settings) {
        return parse(settings.front().corsAllowedOrigins());
    }

    static CorsPolicy parse(String setting) {
        if (setting == null || setting.isBlank()) {
            return NONE;
        }
        Set<String> origins = new HashSet<>();
        for (String entry : setting.split(",")) {
            String origin = entry.strip().toLowerCase(Locale.ROOT);
            if (origin.isEmpty()) {
                continue;
            }
            if (!origin.equals(ANY) && !ORIGIN.matcher(origin).matches()) {
                throw new IllegalArgumentException(SpecEnv.CORS_ALLOWED_ORIGINS + ": '" + entry.strip()
                        + "' is not an origin; write scheme://host[:port] with no path or trailing slash, as in "
                        + "https://chat.example.com");
            }
            origins.add(origin);
        }
        if (origins.contains(ANY) && origins.size() > 1) {
            throw new IllegalArgumentException(SpecEnv.CORS_ALLOWED_ORIGINS + ": '*' allows every origin; name no "
                    + "other beside it");
        }
        return origins.isEmpty() ? NONE : new CorsPolicy(origins);
    }

    /** Whether any origin is allowed at all (else requests are answered as if CORS did not exist). */
    public boolean enabled() {
        return !origins.isEmpty();
    }

    /** A CORS preflight: OPTIONS from a page, asking which method it may use. */
    static boolean isPreflight(HttpServerRequest req) {
        return req.method() == HttpMethod.OPTIONS && req.getHeader(HttpHeaders.ORIGIN) != null
                && req.getHeader(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD) != null;
    }

    /** Whether a page of this origin (the Origin header's value) may call the gateway. */
    boolean allows(String origin) {
        return origin != null && (anyOrigin || origins.contains(origin.toLowerCase(Locale.ROOT)));
    }

    /**
     * On the answer to an actual request: the allowed origin and the headers its page may read, or, for an origin
     * not listed, only Vary (the answer differs by Origin, so a shared cache must not hand one origin's to another).
     */
    void decorate(HttpServerRequest req) {
        String origin = req.getHeader(HttpHeaders.ORIGIN);
        if (origin == null) {
            return;
        }
        HttpServerResponse response = req.response();
        if (allows(origin)) {
            allowOrigin(response, origin);
            response.putHeader(HttpHeaders.ACCESS_CONTROL_EXPOSE_HEADERS, EXPOSED);
        } else {
            response.putHeader(HttpHeaders.VARY, HttpHeaders.ORIGIN);
        }
    }

    /**
     * Answers an allowed origin's preflight for a route served with {@code methods}: 204, the methods, the request
     * headers it asked for (any: the gateway reads the ones it knows and passes on none it does not), and how long to
     * remember it.
     */
    void answerPreflight(HttpServerRequest req, String methods) {
        HttpServerResponse response = req.response();
        allowOrigin(response, req.getHeader(HttpHeaders.ORIGIN));
        response.putHeader(HttpHeaders.ACCESS_CONTROL_ALLOW_METHODS, methods);
        String asked = req.getHeader(HttpHeaders.ACCESS_CONTROL_REQUEST_HEADERS);
        if (asked != null) {
            response.putHeader(HttpHeaders.ACCESS_CONTROL_ALLOW_HEADERS, asked);
        }
        response.putHeader(HttpHeaders.ACCESS_CONTROL_MAX_AGE, MAX_AGE_SECONDS);
        response.setStatusCode(204).end();
    }

    private void allowOrigin(HttpServerResponse response, String origin) {
        if (anyOrigin) {
            response.putHeader(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, ANY);
        } else {
            response.putHeader(HttpHeaders.ACCESS_CONTROL_ALLOW_ORIGIN, origin);
            response.putHeader(HttpHeaders.VARY, HttpHeaders.ORIGIN);
        }
    }
}
