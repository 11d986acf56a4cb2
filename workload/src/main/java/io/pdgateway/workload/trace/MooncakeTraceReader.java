package io.pdgateway.workload.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the Mooncake (Kimi) FAST'25 traces (shared/traces/README.md): one JSON object a line with {@code timestamp}
 * (ms from the start), {@code input_length}, {@code output_length} and {@code hash_ids}, the ids of the prompt's
 * {@link TraceRequest#HASH_BLOCK_TOKENS}-token blocks. Rows that share leading ids share that prefix, which each
 * tool keeps: as text in bench, as KV-block hashes in routing-sim.
 */
public final class MooncakeTraceReader {
    private static final ObjectMapper JSON = new ObjectMapper();

    private MooncakeTraceReader() {}

    /**
     * The rows that arrive within the first {@code windowMillis} of the trace, in file order. Lengths below 1 token
     * are raised to 1; a row without {@code hash_ids} shares nothing.
     */
    public static List<TraceRequest> read(Path jsonl, long windowMillis) throws IOException {
        List<TraceRequest> requests = new ArrayList<>();
        try (BufferedReader reader = Files.newBufferedReader(jsonl, StandardCharsets.UTF_8)) {
            String line;
            int lineNumber = 0;
            while ((line = reader.readLine()) != null) {
                lineNumber++;
                if (line.isBlank()) {
                    continue;
                }
                JsonNode row;
                try {
                    row = JSON.readTree(line);
                } catch (IOException e) {
                    throw new IOException(jsonl + " line " + lineNumber + " is not JSON: " + e.getMessage(), e);
                }
                if (!row.has("timestamp") || !row.has("input_length") || !row.has("output_length")) {
                    throw new IOException(jsonl + " line " + lineNumber
                            + " is not a Mooncake row (needs timestamp, input_length, output_length, hash_ids)");
                }
                double at = row.path("timestamp").asDouble();
                // The window counts whole milliseconds, as the recorded timestamps are.
                if ((long) at > windowMillis) {
                    break;
                }
                JsonNode ids = row.path("hash_ids");
                long[] hashIds = new long[ids.size()];
                for (int i = 0; i < hashIds.length; i++) {
                    hashIds[i] = ids.get(i).asLong();
                }
                requests.add(new TraceRequest(requests.size(), Math.max(0, at),
                        Math.max(1, row.path("input_length").asInt()), Math.max(1, row.path("output_length").asInt()),
                        hashIds));
            }
        }
        return requests;
    }
}
