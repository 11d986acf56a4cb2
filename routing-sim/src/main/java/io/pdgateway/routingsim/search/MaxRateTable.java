package io.pdgateway.routingsim.search;

import io.pdgateway.routingsim.policy.PolicyRegistry;
import io.pdgateway.routingsim.report.PolicyReport;
import java.util.List;
import java.util.Locale;

/**
 * The max-rate table: per policy the highest sustained rate, the gap it closes between the floor and the ceiling
 * ((policy − round-robin) / (oracle − round-robin) of that rate), and its figures at that rate.
 */
public final class MaxRateTable {
    private static final String ROW = "%-34s %9s %7s %7s %9s %9s %6s %6s %6s%n";

    private MaxRateTable() {}

    /** (policy − floor) / (ceiling − floor), or NaN when the run has no floor or ceiling, or they do not differ. */
    public static double gapClosed(MaxRateSearch.Result policy, List<MaxRateSearch.Result> all) {
        MaxRateSearch.Result floor = find(all, PolicyRegistry.FLOOR);
        MaxRateSearch.Result ceiling = find(all, PolicyRegistry.CEILING);
        if (floor == null || ceiling == null) {
            return Double.NaN;
        }
        double span = ceiling.maxRequestsPerSecond() - floor.maxRequestsPerSecond();
        return span <= 0 ? Double.NaN : (policy.maxRequestsPerSecond() - floor.maxRequestsPerSecond()) / span;
    }

    private static MaxRateSearch.Result find(List<MaxRateSearch.Result> all, String name) {
        for (MaxRateSearch.Result result : all) {
            if (result.policy().name().equals(name)) {
                return result;
            }
        }
        return null;
    }

    public static String write(String heading, List<MaxRateSearch.Result> results) {
        StringBuilder out = new StringBuilder(heading);
        out.append(String.format(Locale.ROOT, "max rate: the highest arrival rate at which >= %.0f %% of requests meet "
                + "the SLO; gap closed = (policy - round-robin) / (oracle - round-robin)%n", 100 * MaxRateSearch.ATTAINMENT));
        out.append(String.format(Locale.ROOT, ROW, "policy", "max req/s", "x trace", "gap %", "TTFT p50", "TTFT p99",
                "SLO %", "hit %", "probes"));
        for (MaxRateSearch.Result result : results) {
            PolicyReport at = result.best() == null ? null : result.best().report();
            double gap = gapClosed(result, results);
            out.append(String.format(Locale.ROOT, ROW, result.policy().name(),
                    fixed(result.maxRequestsPerSecond(), 2),
                    result.best() == null ? "-" : fixed(result.best().rateScale(), 3),
                    Double.isNaN(gap) ? "-" : fixed(100 * gap, 0),
                    at == null ? "-" : fixed(at.ttftP50(), 0), at == null ? "-" : fixed(at.ttftP99(), 0),
                    at == null ? "-" : fixed(100 * at.attainment(), 1), at == null ? "-" : fixed(100 * at.prefixHitRate(), 1),
                    Integer.toString(result.probes().size())));
        }
        return out.toString();
    }

    private static String fixed(double value, int decimals) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
