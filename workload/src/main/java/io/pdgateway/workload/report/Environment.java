package io.pdgateway.workload.report;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Where and when a benchmark ran: numbers from different machines or days are not comparable without it. */
public record Environment(String date, int cores, String java, String os, long maxHeapMb) {
    public static Environment current() {
        Runtime runtime = Runtime.getRuntime();
        return new Environment(OffsetDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ISO_OFFSET_DATE_TIME),
                runtime.availableProcessors(), System.getProperty("java.vm.name") + " " + System.getProperty("java.version"),
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                runtime.maxMemory() / (1024 * 1024));
    }

    public String oneLine() {
        return String.format("%s, %d cores, %s, %s", date, cores, java, os);
    }
}
