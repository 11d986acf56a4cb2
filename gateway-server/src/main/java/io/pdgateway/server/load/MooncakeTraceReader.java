package io.pdgateway.server.load;

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
 * Reads the Mooncake (Kimi) FAST'25 traces: one JSON object a line with {@code timestamp} (ms from the start),
 * {@code input_length}, {@code output_length} and {@code hash_ids}, the ids of the prompt's 512-token blocks.
 * Each block's text is drawn from its id, so two requests whose leading ids agree share that prefix text exactly,
 * and a prefix cache sees the hits the production cache saw. The last block is usually partial: it is the start of
 * its id's full text.
 */
public final class MooncakeTraceReader {
    /** Mooncake's block size: "ids of the prompt's 512-token blocks" (traces/README.md). */
    public static final int BLOCK_TOKENS = 512;
    /** Seed family of Mooncake blocks. */
    static final long SEED_FAMILY = 0x300_0CA4EL;
    /** Seed family of the text past the last listed block, should a line list too few ids (own text per line). */
    static final long TAIL_SEED_FAMILY = 0x300_0CA4FL;

    private static final ObjectMapper JSON = new ObjectMapper();

    private MooncakeTraceReader() {}

    /** The requests that arrive within the first {@code windowMillis} of the trace, in file order. */
    public static List<LoadRequest> read(Path jsonl, long windowMillis) throws IOException {
        List<LoadRequest> requests = new ArrayList<>();
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
                long at = row.path("timestamp").asLong();
                if (at > windowMillis) {
                    break;
                }
                List<Long> ids = new ArrayList<>();
                row.path("hash_ids").forEach(id -> ids.add(id.asLong()));
                requests.add(new LoadRequest(Math.max(0, at), prompt(row.path("input_length").asInt(), ids, lineNumber),
                        Math.max(1, row.path("output_length").asInt()), null));
            }
        }
        return requests;
    }

    /** Full 512-token blocks from the ids, the last one cut to what {@code inputTokens} leaves. */
    static PromptPlan prompt(int inputTokens, List<Long> hashIds, long lineNumber) {
        List<PromptPlan.Segment> segments = new ArrayList<>();
        int left = Math.max(1, inputTokens);
        for (long id : hashIds) {
            if (left <= 0) {
                break;
            }
            int tokens = Math.min(BLOCK_TOKENS, left);
            segments.add(new PromptPlan.Segment(PromptPlan.seed(SEED_FAMILY, id), tokens));
            left -= tokens;
        }
        if (left > 0) {
            segments.add(new PromptPlan.Segment(PromptPlan.seed(TAIL_SEED_FAMILY, lineNumber), left));
        }
        return new PromptPlan(segments);
    }
}
