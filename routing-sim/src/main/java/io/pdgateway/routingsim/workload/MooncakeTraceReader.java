package io.pdgateway.routingsim.workload;

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
 * Reads the Mooncake (Kimi) FAST'25 trace format (shared/traces/README.md): one JSON object a line with
 * {@code timestamp} (ms from the start), {@code input_length}, {@code output_length} and {@code hash_ids}, the ids of
 * the prompt's 512-token blocks. Requests that share leading ids share that prefix, which the block hashes keep.
 */
public final class MooncakeTraceReader {
    /** shared/traces/README.md: each hash id stands for one 512-token block of the prompt. */
    public static final int MOONCAKE_BLOCK_TOKENS = 512;
    private static final ObjectMapper JSON = new ObjectMapper();

    private MooncakeTraceReader() {}

    public static Workload read(Path file, int blockSize) throws IOException {
        List<SimRequest> requests = new ArrayList<>();
        try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int lineNumber = 0;
            while ((line = reader.readLine()) != null) {
                lineNumber++;
                if (line.isBlank()) {
                    continue;
                }
                JsonNode node = JSON.readTree(line);
                if (!node.has("timestamp") || !node.has("input_length") || !node.has("hash_ids")) {
                    throw new IOException(file + ":" + lineNumber + " is not a Mooncake trace line (needs timestamp, "
                            + "input_length, output_length, hash_ids)");
                }
                requests.add(request(requests.size(), node, blockSize));
            }
        }
        return new Workload("mooncake", file.toString(), requests);
    }

    static SimRequest request(int index, JsonNode node, int blockSize) {
        int input = Math.max(1, node.path("input_length").asInt());
        int output = Math.max(1, node.path("output_length").asInt());
        JsonNode ids = node.path("hash_ids");
        long[] segmentIds = new long[ids.size()];
        int[] segmentTokens = new int[ids.size()];
        for (int i = 0; i < ids.size(); i++) {
            segmentIds[i] = ids.get(i).asLong();
            segmentTokens[i] = MOONCAKE_BLOCK_TOKENS;
        }
        long[] hashes;
        if ((long) ids.size() * MOONCAKE_BLOCK_TOKENS < input) {
            hashes = BlockHashes.unique(index, input, blockSize); // malformed line: keep the request, share nothing
        } else {
            hashes = BlockHashes.of(segmentIds, segmentTokens, input, blockSize);
        }
        long arrival = Math.round(node.path("timestamp").asDouble() * 1e6);
        return new SimRequest(index, arrival, input, output, hashes, null);
    }
}
