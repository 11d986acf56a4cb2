package io.pdgateway.workload.report;

import java.util.List;

/**
 * A whole report: one run ({@code bench run}) or several over the same workload ({@code bench compare}).
 *
 * @param title    what was measured
 * @param command  the command line that produced it, to paste and reproduce
 * @param workload where the requests came from and how they were shaped
 * @param notes    anything a reader needs to judge the numbers (time scale, caveats)
 */
public record ReportDocument(String title, String command, Environment environment, String workload,
        List<RunReport> runs, List<String> notes) {
    public ReportDocument {
        runs = List.copyOf(runs);
        notes = List.copyOf(notes);
    }
}
