package io.pdgateway.routingsim.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The run's text table, one line per policy. Only simulated quantities appear in it (no wall time), so the same seed
 * gives the same table byte for byte.
 */
public final class TableWriter {
    private static final int SHOWN_STEPS = 4;
    private static final String ROW = "%-34s %9s %9s %8s %8s %9s %6s %6s %6s %6s %7s %6s%n";

    private TableWriter() {}

    public static String write(SimulationReport report) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "routing-sim: %s, %d requests over %.0f s, on %s%n", report.workload(),
                report.requests(), report.spanSeconds(), report.cluster()));
        out.append(String.format(Locale.ROOT, "seed %d; goodput = requests/s meeting TTFT <= %.0f ms and TPOT <= %.0f ms"
                + "; latencies in ms%n", report.seed(), report.slo().ttftMillis(), report.slo().tpotMillis()));
        out.append(String.format(Locale.ROOT, ROW, "policy", "TTFT p50", "TTFT p99", "TPOT p50", "TPOT p99", "goodput",
                "SLO %", "hit %", "P imb", "D imb", "fallbk", "errors"));
        for (PolicyReport p : report.policies()) {
            out.append(String.format(Locale.ROOT, ROW, p.name(), ms(p.ttftP50()), ms(p.ttftP99()), ms(p.tpotP50()),
                    ms(p.tpotP99()), fixed(p.goodput(), 2), fixed(100 * p.attainment(), 1),
                    fixed(100 * p.prefixHitRate(), 1), fixed(p.prefillImbalance(), 2), fixed(p.decodeImbalance(), 2),
                    Integer.toString(p.fallbacks()), Integer.toString(p.errors())));
        }
        out.append("decided by (cascade steps, share of requests):\n");
        for (PolicyReport p : report.policies()) {
            out.append(String.format(Locale.ROOT, "  %-32s %s%n", p.name(), steps(p)));
        }
        if (report.invariantsHold()) {
            out.append("invariants: ok (every request finished exactly once, ledgers at zero, engines idle)\n");
        } else {
            for (PolicyReport p : report.policies()) {
                for (String v : p.violations()) {
                    out.append("INVARIANT VIOLATED [").append(p.name()).append("]: ").append(v).append('\n');
                }
            }
        }
        return out.toString();
    }

    /** The policy's most frequent deciding steps, most frequent first, with their share of requests. */
    static String steps(PolicyReport p) {
        List<Map.Entry<String, Integer>> byCount = new ArrayList<>(p.steps().entrySet());
        byCount.sort(Map.Entry.<String, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
        int total = 0;
        for (Map.Entry<String, Integer> e : byCount) {
            total += e.getValue();
        }
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < Math.min(SHOWN_STEPS, byCount.size()); i++) {
            Map.Entry<String, Integer> e = byCount.get(i);
            line.append(i == 0 ? "" : "; ").append(e.getKey()).append(' ')
                    .append(fixed(100.0 * e.getValue() / total, 1)).append('%');
        }
        if (byCount.size() > SHOWN_STEPS) {
            line.append("; ").append(byCount.size() - SHOWN_STEPS).append(" more");
        }
        return line.toString();
    }

    static String ms(double value) {
        return fixed(value, 1);
    }

    static String fixed(double value, int decimals) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
