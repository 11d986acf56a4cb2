package io.pdgateway.bench.validate;

import io.pdgateway.routingsim.run.RequestRecord;
import io.pdgateway.workload.run.RequestResult;
import java.util.List;
import java.util.Locale;

/**
 * Each request as both sides served it, one CSV row a request (latencies in modelled milliseconds): where the
 * percentiles part, the rows say which requests did and whether the routing (the pods differ) or the engines (the same
 * pods, other times) made them. It is how the tie order behind {@link ArrivalSpacing} was found.
 */
final class RequestPairs {
    static final String HEADER = "index,arrival_ms,prompt_tokens,output_tokens,"
            + "sim_route,sim_ttft_ms,sim_tpot_ms,sim_cached_tokens,"
            + "loopback_route,loopback_ttft_ms,loopback_tpot_ms,loopback_output_tokens,loopback_error";

    private RequestPairs() {}

    static String csv(List<RequestRecord> simulated, List<RequestResult> loopback, double timeScale) {
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        for (int i = 0; i < simulated.size(); i++) {
            RequestRecord s = simulated.get(i);
            RequestResult r = loopback.get(i);
            out.append(String.format(Locale.ROOT, "%d,%.1f,%d,%d,%s,%.1f,%.2f,%d,%s,%.1f,%.2f,%d,%s%n", s.index(),
                    s.arrivalNanos() / 1e6, s.promptTokens(), s.outputTokens(), route(s), s.ttftMillis(),
                    s.tpotMillis(), s.cachedTokens(), field(r.route()), r.ttftMillis() / timeScale,
                    r.tpotMillis() / timeScale, r.outputTokens(), field(r.error())));
        }
        return out.toString();
    }

    /** As the loopback client names a route: "pd prefill -> decode" or "standard pod". */
    private static String route(RequestRecord s) {
        if (s.failed()) {
            return "";
        }
        return s.prefillPod() == null ? "standard " + s.targetPod() : "pd " + s.prefillPod() + " -> " + s.targetPod();
    }

    /** Free text in one field: no separator, quote or line break of its own. */
    private static String field(String text) {
        return text == null ? "" : text.replaceAll("[,\"\\r\\n]", " ");
    }
}
