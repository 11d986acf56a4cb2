package io.pdgateway.workload.trace;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The trace heads that ship inside the jar (see resources/bundled-traces/NOTICE.txt for sources and licences), so that
 * {@code demo} and {@code bench compare} work on a fresh clone without the full trace files.
 */
public enum BundledTrace {
    /** The first five minutes of the Azure 2023 conversation trace (CC-BY 4.0). */
    AZURE_CONVERSATION("/bundled-traces/azure-2023-conv-head.csv", "the first 5 minutes of the Azure 2023 conversation trace"),
    /** The first five minutes of the Mooncake FAST'25 conversation trace (Apache-2.0). */
    MOONCAKE_CONVERSATION("/bundled-traces/mooncake-conversation-head.jsonl",
            "the first 5 minutes of the Mooncake conversation trace");

    private final String resource;
    private final String description;

    BundledTrace(String resource, String description) {
        this.resource = resource;
        this.description = description;
    }

    public String description() {
        return description;
    }

    /** Copies the trace into {@code dir} (the readers take files) and returns the copy. */
    public Path extract(Path dir) throws IOException {
        Path file = dir.resolve(resource.substring(resource.lastIndexOf('/') + 1));
        try (InputStream in = BundledTrace.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("bundled trace " + resource + " missing from the jar");
            }
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
        }
        return file;
    }
}
