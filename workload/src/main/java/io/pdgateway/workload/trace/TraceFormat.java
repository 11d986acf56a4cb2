package io.pdgateway.workload.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The trace files {@code bench} replays, told apart by their first line. */
public enum TraceFormat {
    AZURE, MOONCAKE;

    /** The format of a trace file: a {@code TIMESTAMP} CSV header is Azure, a JSON object is Mooncake. */
    public static TraceFormat detect(Path file) throws IOException {
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String first = reader.readLine();
            if (first != null && first.startsWith("TIMESTAMP")) {
                return AZURE;
            }
            if (first != null && first.trim().startsWith("{")) {
                return MOONCAKE;
            }
        }
        throw new IOException(file + " is neither an Azure trace CSV (TIMESTAMP header) nor Mooncake JSONL");
    }

    public List<TraceRequest> read(Path file, long windowMillis) throws IOException {
        return this == AZURE ? AzureTraceReader.read(file, windowMillis) : MooncakeTraceReader.read(file, windowMillis);
    }
}
