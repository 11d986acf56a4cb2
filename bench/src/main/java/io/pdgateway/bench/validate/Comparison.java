package io.pdgateway.bench.validate;

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

    private final List<Row> rows;
    private final String header;

    private Comparison(List<Row> rows, String header) {
        this.rows = rows;
        this.header = header;
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
        return new Comparison(rows, header);
    }

    private static void fill(double[][] into, int i, double ttft, double tpot, boolean standard) {
        into[0][i] = ttft;
        into[1][i] = tpot;
        into[2][i] = standard ? Double.NaN : ttft;
        into[3][i] = standard ? Double.NaN : tpot;
        into[4][i] = standard ? ttft : Double.NaN;
        into[5][i] = standard ? tpot : Double.NaN;
    }

    String table(double toleranceP50, double toleranceP90) {
        StringBuilder out = new StringBuilder(header);
        String format = "%-20s %12s %12s %8s %s%n";
        out.append(String.format(Locale.ROOT, format, "metric (ms)", "loopback", "simulator", "gap", ""));
        for (Row row : rows) {
            String verdict = !row.gated() ? "" : Math.abs(row.gap()) <= tolerance(row, toleranceP50, toleranceP90)
                    ? "ok" : "OUTSIDE " + pct(tolerance(row, toleranceP50, toleranceP90));
            out.append(String.format(Locale.ROOT, format, row.metric(), fixed(row.loopback()), fixed(row.simulated()),
                    Double.isNaN(row.gap()) ? "-" : String.format(Locale.ROOT, "%+.1f%%", 100 * row.gap()), verdict));
        }
        out.append(String.format(Locale.ROOT, "tolerance: p50 within %s, p90 within %s, on all requests (p99 and "
                + "per-path rows are reported, not gated)%n", pct(toleranceP50), pct(toleranceP90)));
        return out.toString();
    }

    boolean agrees(double toleranceP50, double toleranceP90) {
        for (Row row : rows) {
            if (row.gated() && !(Math.abs(row.gap()) <= tolerance(row, toleranceP50, toleranceP90))) {
                return false;
            }
        }
        return true;
    }

    private static double tolerance(Row row, double p50, double p90) {
        return row.quantile() == 50 ? p50 : p90;
    }

    private static String pct(double fraction) {
        return String.format(Locale.ROOT, "%.0f%%", 100 * fraction);
    }

    private static String fixed(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.1f", value);
    }
}
