package io.pdgateway.workload.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the Azure LLM inference trace 2023 (Patel et al., "Splitwise", ISCA 2024; CC-BY 4.0): {@code TIMESTAMP,
 * ContextTokens,GeneratedTokens}, with timestamps like {@code 2023-11-16 18:15:46.6805900}. The trace has no prefix
 * structure: its rows carry no hash ids, so every prompt shares nothing.
 */
public final class AzureTraceReader {
    private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
            .appendPattern("yyyy-MM-dd HH:mm:ss")
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
            .toFormatter();

    private AzureTraceReader() {}

    /**
     * The requests that arrive within the first {@code windowMillis} of the trace, in order, arrival times relative
     * to the first request. Lengths below 1 token are raised to 1 (the trace has a few zero-output rows).
     */
    public static List<TraceRequest> read(Path csv, long windowMillis) throws IOException {
        List<TraceRequest> requests = new ArrayList<>();
        try (BufferedReader reader = Files.newBufferedReader(csv, StandardCharsets.UTF_8)) {
            String header = reader.readLine();
            if (header == null || !header.startsWith("TIMESTAMP")) {
                throw new IOException(csv + " is not an Azure trace (no TIMESTAMP header)");
            }
            LocalDateTime start = null;
            String line;
            int lineNumber = 1;
            while ((line = reader.readLine()) != null) {
                lineNumber++;
                String[] fields = line.split(",");
                if (fields.length < 3) {
                    continue;
                }
                try {
                    LocalDateTime at = LocalDateTime.parse(fields[0].trim(), TIMESTAMP);
                    if (start == null) {
                        start = at;
                    }
                    long offset = ChronoUnit.MILLIS.between(start, at);
                    if (offset > windowMillis) {
                        break;
                    }
                    int prompt = Math.max(1, Integer.parseInt(fields[1].trim()));
                    int output = Math.max(1, Integer.parseInt(fields[2].trim()));
                    requests.add(new TraceRequest(requests.size(), Math.max(0, offset), prompt, output, new long[0]));
                } catch (RuntimeException e) {
                    throw new IOException(csv + " line " + lineNumber + ": " + e.getMessage(), e);
                }
            }
        }
        return requests;
    }
}
