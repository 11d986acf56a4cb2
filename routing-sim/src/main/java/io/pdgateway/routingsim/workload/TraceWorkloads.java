package io.pdgateway.routingsim.workload;

import io.pdgateway.workload.trace.AzureTraceReader;
import io.pdgateway.workload.trace.MooncakeTraceReader;
import io.pdgateway.workload.trace.TraceRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A recorded trace as the simulator replays it, read with the workload library's readers: each row's prompt becomes
 * the chained hashes of its KV blocks. Rows that list the ids of their 512-token blocks (Mooncake) share exactly the
 * blocks their leading ids agree on; rows without ids (Azure), or listing too few for their prompt, get blocks of
 * their own.
 */
public final class TraceWorkloads {
    private TraceWorkloads() {}

    /** The Mooncake (Kimi) FAST'25 trace format (shared/traces/README.md). */
    public static Workload mooncake(Path file, int blockSize) throws IOException {
        return of("mooncake", file.toString(), MooncakeTraceReader.read(file, Long.MAX_VALUE), blockSize);
    }

    /** The Azure LLM inference trace 2023 (Patel et al., "Splitwise", ISCA 2024; CC-BY 4.0): lengths and times only. */
    public static Workload azure(Path file, int blockSize) throws IOException {
        return of("azure", file.toString(), AzureTraceReader.read(file, Long.MAX_VALUE), blockSize);
    }

    static Workload of(String name, String source, List<TraceRequest> rows, int blockSize) {
        List<SimRequest> requests = new ArrayList<>(rows.size());
        for (TraceRequest row : rows) {
            requests.add(new SimRequest(row.index(), Math.round(row.arrivalMillis() * 1e6), row.promptTokens(),
                    row.outputTokens(), blockHashes(row, blockSize), null));
        }
        return new Workload(name, source, requests);
    }

    private static long[] blockHashes(TraceRequest row, int blockSize) {
        if (!row.hashIdsCoverPrompt()) {
            // No ids (Azure), or a malformed row: keep the request, share nothing.
            return BlockHashes.unique(row.index(), row.promptTokens(), blockSize);
        }
        long[] ids = row.hashIds();
        int[] tokens = new int[ids.length];
        Arrays.fill(tokens, TraceRequest.HASH_BLOCK_TOKENS);
        return BlockHashes.of(ids, tokens, row.promptTokens(), blockSize);
    }
}
