package io.pdgateway.workload.report;

import io.pdgateway.workload.Slo;
import io.pdgateway.workload.run.RequestResult;
import io.pdgateway.workload.run.RunRecording;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.DoubleHistogram;

/** Made-up runs for the report tests: known latencies, one error, nothing measured. */
public final class Reports {
    private Reports() {}

    /** 99 successes with TTFT 10..108 ms and TPOT 5 ms, and one HTTP 503. */
    public static RunRecording recording() {
        List<RequestResult> results = new ArrayList<>();
        DoubleHistogram gaps = new DoubleHistogram(3);
        for (int i = 0; i < 99; i++) {
            results.add(new RequestResult(i * 20.0, 0.1, 200, "standard s-0", true, 9 + i, 10 + i, 5, 100 + i, 16, 500,
                    null));
            gaps.recordValue(5);
        }
        results.add(new RequestResult(1_990, 0.2, 503, "unrouted", false, 3, -1, -1, 4, 0, 500,
                "http 503: nothing routable"));
        return new RunRecording(results, gaps, List.of(3, 2, 0), 2.5, 0);
    }

    public static ReportDocument document(String... names) {
        List<RunReport> runs = new ArrayList<>();
        for (String name : names) {
            runs.add(RunReport.of(name, "details of " + name, recording(), new Slo(50, 10)));
        }
        return new ReportDocument("a <test> report", "bin/pd-gateway bench run --synthetic", Environment.current(),
                "synthetic", runs, List.of("a note"));
    }
}
