package io.pdgateway.routingsim.workload;

import io.pdgateway.server.load.LoadRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the Azure LLM inference trace 2023 (Patel et al., "Splitwise", ISCA 2024; CC-BY 4.0) with the load generator's reader:
 * lengths and arrival times only, no prefix structure, so every prompt gets blocks of its own.
 */
public final class AzureTraceReader {
    private AzureTraceReader() {}

    public static Workload read(Path file, int blockSize) throws IOException {
        List<LoadRequest> rows = io.pdgateway.server.load.AzureTraceReader.read(file, Long.MAX_VALUE);
        List<SimRequest> requests = new ArrayList<>(rows.size());
        for (LoadRequest row : rows) {
            int index = requests.size();
            int prompt = Math.max(1, row.prompt().tokens());
            requests.add(new SimRequest(index, row.arrivalMillis() * 1_000_000L, prompt, Math.max(1, row.outputTokens()),
                    BlockHashes.unique(index, prompt, blockSize), null));
        }
        return new Workload("azure", file.toString(), requests);
    }
}
