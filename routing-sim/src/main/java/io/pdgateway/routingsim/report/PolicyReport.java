package io.pdgateway.routingsim.report;

import io.pdgateway.routingsim.engine.EngineRole;
import io.pdgateway.routingsim.run.PodSummary;
import io.pdgateway.routingsim.run.RequestRecord;
import io.pdgateway.routingsim.run.RunResult;
import io.pdgateway.workload.Slo;
import io.pdgateway.workload.report.NearestRankPercentiles;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One policy's line of the report (Caffeine's PolicyStats), computed from its run.
 *
 * @param goodput requests per second that met the SLO, over the workload's arrival span
 * @param attainment share of all requests that met the SLO, 0..1
 * @param prefixHitRate share of prompt tokens the serving engines found in their prefix caches, 0..1
 * @param prefillImbalance max / mean busy time over the prefill pods (NaN with fewer than two); 1 is even
 * @param decodeImbalance the same over the decode pods
 * @param standardImbalance the same over the standard pods
 * @param steps how many decisions each cascade step (or floor/oracle) made, by step name
 * @param ttftPercentiles TTFT at the 1st..99th percentile, ms, for the CDF chart
 */
public record PolicyReport(String name, String family, String description, String strategy, int requests,
        int completed, int errors, int fallbacks, double ttftP50, double ttftP99, double tpotP50, double tpotP99,
        double goodput, double attainment, double prefixHitRate, double prefillImbalance, double decodeImbalance,
        double standardImbalance, double outputTokensPerSecond, long events, double wallMillis,
        Map<String, Integer> steps, List<String> violations, List<String> warnings, double[] ttftPercentiles) {

    public static PolicyReport of(RunResult run, Slo slo, long spanNanos) {
        List<RequestRecord> records = run.records();
        int n = records.size();
        double[] ttft = new double[n];
        double[] tpot = new double[n];
        int errors = 0;
        int fallbacks = 0;
        int good = 0;
        long output = 0;
        Map<String, Integer> steps = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            RequestRecord r = records.get(i);
            ttft[i] = r.ttftMillis();
            tpot[i] = r.tpotMillis();
            errors += r.failed() ? 1 : 0;
            fallbacks += r.fallback() ? 1 : 0;
            good += !r.failed() && slo.met(r.ttftMillis(), r.tpotMillis()) ? 1 : 0;
            output += r.failed() ? 0 : r.outputTokens();
            steps.merge(r.step(), 1, Integer::sum);
        }
        NearestRankPercentiles ttftSample = NearestRankPercentiles.of(ttft);
        NearestRankPercentiles tpotSample = NearestRankPercentiles.of(tpot);
        double seconds = spanNanos / 1e9;
        long queried = 0;
        long hits = 0;
        for (PodSummary pod : run.pods()) {
            queried += pod.prefixQueriedTokens();
            hits += pod.prefixHitTokens();
        }
        return new PolicyReport(run.policy().name(), run.policy().family(), run.policy().description(), run.strategy(),
                n, n - errors, errors, fallbacks, ttftSample.percentile(50), ttftSample.percentile(99),
                tpotSample.percentile(50), tpotSample.percentile(99), seconds > 0 ? good / seconds : good,
                n == 0 ? 0 : (double) good / n, queried == 0 ? 0 : (double) hits / queried,
                imbalance(run.pods(), EngineRole.PREFILL), imbalance(run.pods(), EngineRole.DECODE),
                imbalance(run.pods(), EngineRole.STANDARD), seconds > 0 ? output / seconds : output, run.events(),
                run.wallNanos() / 1e6, steps, run.violations(), run.warnings(), ttftSample.percentiles());
    }

    /** max / mean of the pods' busy time in one role; NaN with fewer than two pods or no work. */
    static double imbalance(List<PodSummary> pods, EngineRole role) {
        return maxOverMean(pods.stream().filter(pod -> pod.role() == role).mapToLong(PodSummary::busyNanos).toArray());
    }

    /**
     * The largest of the values over their mean: how much more than an even share the busiest pod took (1 when even).
     * NaN with fewer than two values or a zero sum.
     */
    public static double maxOverMean(long[] values) {
        long max = 0;
        long sum = 0;
        for (long value : values) {
            max = Math.max(max, value);
            sum += value;
        }
        return values.length < 2 || sum == 0 ? Double.NaN : max / ((double) sum / values.length);
    }

    public boolean invariantsHold() {
        return violations.isEmpty();
    }
}
