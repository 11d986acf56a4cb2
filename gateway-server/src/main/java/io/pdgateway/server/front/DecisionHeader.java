package io.pdgateway.server.front;

import io.pdgateway.core.routing.RouteDecision;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** The x-pd-decision debug header: {@code step=...; reason=...; scores=rs1:1.250,rs2:2.000}, ASCII only. */
final class DecisionHeader {
    private DecisionHeader() {}

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
