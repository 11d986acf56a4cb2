package io.pdgateway.routingsim.report;

import java.util.Locale;

/** The report as CSV: one row per policy, the run's context repeated on each row so rows can be concatenated. */
public final class CsvWriter {
    static final String HEADER = "workload,requests,span_s,cluster,seed,slo_ttft_ms,slo_tpot_ms,policy,family,strategy,"
            + "completed,errors,fallbacks,ttft_p50_ms,ttft_p99_ms,tpot_p50_ms,tpot_p99_ms,goodput_rps,slo_attainment,"
            + "prefix_hit_rate,prefill_imbalance,decode_imbalance,standard_imbalance,output_tokens_per_s,events";

    private CsvWriter() {}

    public static String write(SimulationReport report) {
        StringBuilder out = new StringBuilder(HEADER).append('\n');
        for (PolicyReport p : report.policies()) {
            out.append(String.join(",", quote(report.workload()), Integer.toString(report.requests()),
                    num(report.spanSeconds()), quote(report.cluster()), Long.toString(report.seed()),
                    num(report.slo().ttftMillis()), num(report.slo().tpotMillis()), quote(p.name()), p.family(),
                    p.strategy(), Integer.toString(p.completed()), Integer.toString(p.errors()),
                    Integer.toString(p.fallbacks()), num(p.ttftP50()), num(p.ttftP99()), num(p.tpotP50()),
                    num(p.tpotP99()), num(p.goodput()), num(p.attainment()), num(p.prefixHitRate()),
                    num(p.prefillImbalance()), num(p.decodeImbalance()), num(p.standardImbalance()),
                    num(p.outputTokensPerSecond()), Long.toString(p.events()))).append('\n');
        }
        return out.toString();
    }

    private static String num(double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.4f", value);
    }

    private static String quote(String value) {
        return "\"" + value.replace("\"", "\"\"") + "\"";
    }
}
