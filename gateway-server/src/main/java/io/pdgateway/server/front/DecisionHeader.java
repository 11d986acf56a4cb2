package io.pdgateway.server.front;

import io.pdgateway.core.routing.RouteDecision;
import io.pdgateway.core.spec.SpecHeaders;
import io.vertx.core.http.HttpServerResponse;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** The x-pd-decision debug header: {@code step=...; reason=...; scores=rs1:1.250,rs2:2.000}, ASCII only. */
public final class DecisionHeader {
    private DecisionHeader() {}

    /** Puts the decision that serves the request into x-pd-decision (the client asked with x-pd-debug: true). */
    public static void show(HttpServerResponse response, RouteDecision decision) {
        response.putHeader(SpecHeaders.PD_DECISION, format(decision));
    }

    static String format(RouteDecision decision) {
        StringBuilder out = new StringBuilder("step=").append(decision.step()).append("; reason=")
                .append(decision.reason());
        if (!decision.scores().isEmpty()) {
            out.append("; scores=");
            String sep = "";
            for (Map.Entry<String, Double> e : new TreeMap<>(decision.scores()).entrySet()) {
                out.append(sep).append(e.getKey()).append(':').append(String.format(Locale.ROOT, "%.3f", e.getValue()));
                sep = ",";
            }
        }
        // Header values must stay printable ASCII.
        return out.toString().replaceAll("[^\\x20-\\x7e]", "?");
    }
}
