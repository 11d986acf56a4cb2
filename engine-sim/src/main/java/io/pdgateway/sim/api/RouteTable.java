package io.pdgateway.sim.api;

import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The pod's routes: exact paths and path prefixes, per method. Unknown paths and methods get the answers of
 * vLLM's FastAPI server: 404 / 405 with {@code {"detail": ...}}.
 */
public final class RouteTable {

    /** Handles one request whose body has been read completely. */
    @FunctionalInterface
    public interface Route {
        void handle(HttpServerRequest request, String body);
    }

    private record PrefixRoute(HttpMethod method, String prefix, Route route) {
    }

    private final Map<String, Map<HttpMethod, Route>> exact = new HashMap<>();
    private final List<PrefixRoute> prefixes = new ArrayList<>();

    public void add(HttpMethod method, String path, Route route) {
        exact.computeIfAbsent(path, p -> new HashMap<>()).put(method, route);
    }

    /** A route for every path starting with {@code prefix}; the handler reads the rest from the path. */
    public void addPrefix(HttpMethod method, String prefix, Route route) {
        prefixes.add(new PrefixRoute(method, prefix, route));
    }

    public void dispatch(HttpServerRequest request, String body) {
        String path = request.path();
        Map<HttpMethod, Route> byMethod = exact.get(path);
        if (byMethod != null) {
            Route route = byMethod.get(request.method());
            if (route != null) {
                route.handle(request, body);
            } else {
                detail(request, 405, "Method Not Allowed");
            }
            return;
        }
        for (PrefixRoute candidate : prefixes) {
            if (path.startsWith(candidate.prefix()) && candidate.method().equals(request.method())) {
                candidate.route().handle(request, body);
                return;
            }
        }
        detail(request, 404, "Not Found");
    }

    private static void detail(HttpServerRequest request, int status, String detail) {
        request.response().setStatusCode(status).putHeader("content-type", "application/json")
                .end(JsonCodec.write(JsonCodec.object().put("detail", detail)));
    }
}
