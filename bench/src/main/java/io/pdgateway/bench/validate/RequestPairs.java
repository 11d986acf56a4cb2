package io.pdgateway.bench.validate;

import io.pdgateway.routingsim.run.RequestRecord;
import io.pdgateway.workload.run.RequestResult;
import java.util.List;
import java.util.Locale;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Each request as both sides served it, one CSV row a request (latencies in modelled milliseconds): where the
 * percentiles part, the rows say which requests did and whether the routing (the pods differ) or the engines (the same
 * pods, other times) made them. It is how the tie order behind {@link ArrivalSpacing} was found.
 */
final class RequestPairs {
    static final String HEADER = "index,arrival_ms,prompt_tokens,output_tokens,"
            + "sim_route,sim_ttft_ms,sim_tpot_ms,sim_cached_tokens,"
            + "loopback_route,loopback_ttft_ms,loopback_tpot_ms,loopback_output_tokens,loopback_error,same_pods";
    /** routing-sim's names: {@code <group>-<r>-prefill-<j>}, {@code <group>-<r>-decode-<j>}, {@code <group>-<s>}. */
    private static final Pattern SIMULATED = Pattern.compile("^.+?-(\\d+)-(prefill|decode)-(\\d+)$|^.+-(\\d+)$");
    /** engine-sim's loopback names: {@code prefill-<r>[-<j>]}, {@code decode-<r>[-<j>]}, {@code standard-<s>}. */
    private static final Pattern LOOPBACK = Pattern.compile("^(prefill|decode)-(\\d+)(?:-(\\d+))?$|^standard-(\\d+)$");

    private RequestPairs() {}

    static String csv(List<RequestRecord> simulated, List<RequestResult> loopback, double timeScale) {
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        for (int i = 0; i < simulated.size(); i++) {
            RequestRecord s = simulated.get(i);
            RequestResult r = loopback.get(i);
            out.append(String.format(Locale.ROOT, "%d,%.1f,%d,%d,%s,%.1f,%.2f,%d,%s,%.1f,%.2f,%d,%s,%s%n", s.index(),
                    s.arrivalNanos() / 1e6, s.promptTokens(), s.outputTokens(), route(s), s.ttftMillis(),
                    s.tpotMillis(), s.cachedTokens(), field(r.route()), r.ttftMillis() / timeScale,
                    r.tpotMillis() / timeScale, r.outputTokens(), field(r.error()), samePods(s, r)));
        }
        return out.toString();
    }

    /** Requests both sides sent to the same pods (by their place in the cluster, the two sides' names differ). */
    static int samePods(List<RequestRecord> simulated, List<RequestResult> loopback) {
        int same = 0;
        for (int i = 0; i < simulated.size(); i++) {
            same += samePods(simulated.get(i), loopback.get(i)) ? 1 : 0;
        }
        return same;
    }

    private static boolean samePods(RequestRecord s, RequestResult r) {
        String simulated = s.failed() ? null : places(route(s), RequestPairs::simulatedPlace);
        return simulated != null && !r.failed() && simulated.equals(places(r.route(), RequestPairs::loopbackPlace));
    }

    /**
     * A route ("pd prefill -> decode", "standard pod") with each pod named by its place in the cluster, the same
     * whichever side named it: "prefill 3.0" (roleset 3, its first prefill pod), "decode 3.1", "standard 0"; null for
     * anything else ("unrouted").
     */
    private static String places(String route, UnaryOperator<String> place) {
        if (route.startsWith("standard ")) {
            return place.apply(route.substring("standard ".length()));
        }
        String[] pods = route.startsWith("pd ") ? route.substring("pd ".length()).split(" -> ") : new String[0];
        return pods.length == 2 ? place.apply(pods[0]) + " -> " + place.apply(pods[1]) : null;
    }

    /** A routing-sim pod's place; a name outside its scheme stays as it is. */
    private static String simulatedPlace(String pod) {
        Matcher m = SIMULATED.matcher(pod);
        if (!m.matches()) {
            return pod;
        }
        return m.group(2) != null ? m.group(2) + " " + m.group(1) + "." + m.group(3) : "standard " + m.group(4);
    }

    /** A loopback pod's place; a name outside its scheme stays as it is. */
    private static String loopbackPlace(String pod) {
        Matcher m = LOOPBACK.matcher(pod);
        if (!m.matches()) {
            return pod;
        }
        return m.group(1) != null ? m.group(1) + " " + m.group(2) + "." + (m.group(3) == null ? "0" : m.group(3))
                : "standard " + m.group(4);
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
