package io.pdgateway.bench;

import io.pdgateway.bench.streams.HeldStreamsBenchmark;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bench streams}: 10,000 live PD streams through one pd-gateway process, then a low per-pod limit. */
@Command(name = "streams", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Open many concurrent PD streams through a pd-gateway process over simulated vLLM pods whose "
                + "decodes hold each stream after its first token. Phase 1 (default limits): every stream must get "
                + "its first token and the gateway's heap after GC stay under --heap-limit-mb; reports heap, direct "
                + "buffers, RSS, open files and threads with 0 and with every stream open, and the cost of one stream. "
                + "Phase 2 (a low per-pod connection limit): the excess must get 503 with Retry-After and the gateway's "
                + "/metrics count it. Exits 1 on any failed check. Needs jcmd on the PATH and about 13,000 open files "
                + "in this process and in the gateway's (ulimit -n).")
public final class BenchStreamsCommand implements Callable<Integer> {
    @Option(names = "--streams", defaultValue = "10000", description = "Phase 1's concurrent streams (default: ${DEFAULT-VALUE}).")
    int streams;

    @Option(names = "--prefill-pods", defaultValue = "8", description = "Prefill pods (default: ${DEFAULT-VALUE}).")
    int prefillPods;

    @Option(names = "--decode-pods", defaultValue = "8", description = "Decode pods (default: ${DEFAULT-VALUE}).")
    int decodePods;

    @Option(names = "--window", defaultValue = "500",
            description = "Streams waiting for their first token at once while phase 1 opens them (default: ${DEFAULT-VALUE}).")
    int window;

    @Option(names = "--first-token-timeout", paramLabel = "SECONDS", defaultValue = "120",
            description = "A stream without its first token by then counts as failed (default: ${DEFAULT-VALUE}).")
    double firstTokenSeconds;

    @Option(names = "--heap-limit-mb", defaultValue = "256",
            description = "Phase 1 fails when the gateway's heap after GC is above this (default: ${DEFAULT-VALUE}).")
    long heapLimitMb;

    @Option(names = "--low-limit", defaultValue = "64",
            description = "Phase 2's PD_GATEWAY_UPSTREAM_MAX_CONNECTIONS_PER_POD (default: ${DEFAULT-VALUE}).")
    int lowLimit;

    @Option(names = "--low-waiting", defaultValue = "16",
            description = "Phase 2's PD_GATEWAY_UPSTREAM_MAX_WAITING_PER_POD (default: ${DEFAULT-VALUE}).")
    int lowWaiting;

    @Option(names = "--low-wait", paramLabel = "SECONDS", defaultValue = "2",
            description = "Phase 2's PD_GATEWAY_UPSTREAM_WAIT_TIMEOUT (default: ${DEFAULT-VALUE}).")
    double lowWaitSeconds;

    @Option(names = "--low-streams", defaultValue = "1000",
            description = "Phase 2's streams, opened all at once (default: ${DEFAULT-VALUE}).")
    int lowStreams;

    @Option(names = "--class-histogram", paramLabel = "TOP", defaultValue = "0",
            description = "Also print the TOP classes whose live bytes in the gateway grew most with phase 1's "
                    + "streams, per stream (default: ${DEFAULT-VALUE}, none).")
    int classHistogramTop;

    @Override
    public Integer call() throws Exception {
        boolean pass = new HeldStreamsBenchmark(new HeldStreamsBenchmark.Settings(streams, prefillPods, decodePods,
                window, firstTokenSeconds, heapLimitMb, lowLimit, lowWaiting, lowWaitSeconds, lowStreams, classHistogramTop),
                System.out)
                .run();
        return pass ? 0 : 1;
    }
}
