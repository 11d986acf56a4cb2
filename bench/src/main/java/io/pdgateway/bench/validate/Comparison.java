package io.pdgateway.bench.validate;

import io.pdgateway.routingsim.report.PolicyReport;
import io.pdgateway.routingsim.run.RequestRecord;
import io.pdgateway.workload.report.NearestRankPercentiles;
import io.pdgateway.workload.run.RequestResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Simulator against loopback, percentile by percentile, for all requests and per path (PD pair or standard pod, by
 * where each side actually served the request). Gaps are relative to the loopback value.
 */
final class Comparison {
    private record Row(String metric, double loopback, double simulated, boolean gated, int quantile) {
        double gap() {
            return (simulated - loopback) / loopback;
        }
    }

    /** Allowed gaps: p50s and p90s relative to the loopback value, the prefix-hit rate in absolute terms (0..1). */
    record Tolerances(double p50, double p90, double prefixHit) {}

    private final List<Row> rows;
    private final String header;
    private final double loopbackHitRate;
    private final double simulatedHitRate;
    private final double loopbackSpread;
    private final double simulatedSpread;

    private Comparison(List<Row> rows, String header, double loopbackHitRate, double simulatedHitRate,
            double loopbackSpread, double simulatedSpread) {
        this.rows = rows;
        this.header = header;
        this.loopbackHitRate = loopbackHitRate;
        this.simulatedHitRate = simulatedHitRate;
        this.loopbackSpread = loopbackSpread;
        this.simulatedSpread = simulatedSpread;
    }

    /** The same comparison with the engines' prefix-cache hit rates (tokens found over tokens looked up), gated. */
    Comparison withPrefixHits(double loopback, double simulated) {
        return new Comparison(rows, header, loopback, simulated, loopbackSpread, simulatedSpread);
    }

    /**
     * The same comparison with each side's prompt tokens per prefilling pod (prefill and standard pods, in any order),
     * reported as their max / mean, not gated: where the latencies part, it says whether the two sides spread the work
     * alike (the routing) or served the same spread differently (the engines).
     */
    Comparison withPrefillSpread(long[] loopbackTokensByPod, long[] simulatedTokensByPod) {
        return new Comparison(rows, header, loopbackHitRate, simulatedHitRate,
                PolicyReport.maxOverMean(loopbackTokensByPod), PolicyReport.maxOverMean(simulatedTokensByPod));
    }

    static Comparison of(List<RequestRecord> simulated, List<RequestResult> loopback, double timeScale) {
        int n = simulated.size();
        double[][] sim = new double[6][n];
        double[][] real = new double[6][n];
        int errors = 0;
        int simStandard = 0;
        int realStandard = 0;
        for (int i = 0; i < n; i++) {
            RequestRecord s = simulated.get(i);
            RequestResult r = loopback.get(i);
            boolean simStd = ValidateCommand.standard(s);
            boolean realStd = r.route().startsWith("standard");
            simStandard += simStd ? 1 : 0;
            realStandard += realStd ? 1 : 0;
            errors += r.failed() ? 1 : 0;
            fill(sim, i, s.ttftMillis(), s.tpotMillis(), simStd);
            fill(real, i, r.failed() || r.ttftMillis() < 0 ? Double.NaN : r.ttftMillis() / timeScale,
                    r.failed() || r.tpotMillis() < 0 ? Double.NaN : r.tpotMillis() / timeScale, realStd);
        }
        List<Row> rows = new ArrayList<>();
        String[] names = {"TTFT all", "TPOT all", "TTFT PD", "TPOT PD", "TTFT standard", "TPOT standard"};
        for (int m = 0; m < 6; m++) {
            NearestRankPercentiles a = NearestRankPercentiles.of(real[m]);
            NearestRankPercentiles b = NearestRankPercentiles.of(sim[m]);
            for (int q : new int[] {50, 90, 99}) {
                rows.add(new Row(names[m] + " p" + q, a.percentile(q), b.percentile(q), m < 2 && q < 99, q));
            }
        }
        String header = String.format(Locale.ROOT, "%d requests; standard-pod path: loopback %d, simulator %d; "
                + "loopback errors: %d%n", n, realStandard, simStandard, errors);
        return new Comparison(rows, header, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    }

    private static void fill(double[][] into, int i, double ttft, double tpot, boolean standard) {
        into[0][i] = ttft;
        into[1][i] = tpot;
        into[2][i] = standard ? Double.NaN : ttft;
        into[3][i] = standard ? Double.NaN : tpot;
        into[4][i] = standard ? ttft : Double.NaN;
        into[5][i] = standard ? tpot : Double.NaN;
    }

    String table(Tolerances tolerances) {
        double toleranceP50 = tolerances.p50();
        double toleranceP90 = tolerances.p90();
        StringBuilder out = new StringBuilder(header);
        String format = "%-20s %12s %12s %8s %s%n";
        out.append(String.format(Locale.ROOT, format, "metric (ms; %)", "loopback", "simulator", "gap", ""));
        for (Row row : rows) {
            String verdict = !row.gated() ? "" : Math.abs(row.gap()) <= tolerance(row, toleranceP50, toleranceP90)
                    ? "ok" : "OUTSIDE " + pct(tolerance(row, toleranceP50, toleranceP90));
            out.append(String.format(Locale.ROOT, format, row.metric(), fixed(row.loopback()), fixed(row.simulated()),
                    Double.isNaN(row.gap()) ? "-" : String.format(Locale.ROOT, "%+.1f%%", 100 * row.gap()), verdict));
        }
        if (!Double.isNaN(loopbackHitRate)) {
            double gap = simulatedHitRate - loopbackHitRate;
            out.append(String.format(Locale.ROOT, format, "prefix hit %", fixed(100 * loopbackHitRate),
                    fixed(100 * simulatedHitRate), String.format(Locale.ROOT, "%+.1f pt", 100 * gap),
                    hitAgrees(tolerances) ? "ok" : "OUTSIDE " + pct(tolerances.prefixHit()).replace("%", " pt")));
        }
        if (!Double.isNaN(loopbackSpread) || !Double.isNaN(simulatedSpread)) {
            out.append(String.format(Locale.ROOT, format, "prefill max/mean", spread(loopbackSpread),
                    spread(simulatedSpread), "", "(prompt tokens per prefilling pod; reported)"));
        }
        out.append(String.format(Locale.ROOT, "tolerance: p50 within %s, p90 within %s, on all requests (p99 and "
                + "per-path rows are reported, not gated); prefix hit rate within %.0f points%n", pct(toleranceP50),
                pct(toleranceP90), 100 * tolerances.prefixHit()));
        return out.toString();
    }

    boolean agrees(Tolerances tolerances) {
        for (Row row : rows) {
            if (row.gated() && !(Math.abs(row.gap()) <= tolerance(row, tolerances.p50(), tolerances.p90()))) {
                return false;
            }
        }
        return hitAgrees(tolerances);
    }

    /** No hit rates (not measured) agree; otherwise the simulator's must be within the absolute tolerance. */
    private boolean hitAgrees(Tolerances tolerances) {
        return Double.isNaN(loopbackHitRate) || Math.abs(simulatedHitRate - loopbackHitRate) <= tolerances.prefixHit();
    }

    private static double tolerance(Row row, double p50, double p90) {
        return row.quantile() == 50 ? p50 : p90;
    }

    private static String pct(double fraction) {
        return String.format(Locale.ROOT, "%.0f%%", 100 * fraction);
    }

    private static String spread(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.2f", value);
    }

    private static String fixed(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.1f", value);
    }
}
