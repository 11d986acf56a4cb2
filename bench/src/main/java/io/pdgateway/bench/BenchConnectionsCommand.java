package io.pdgateway.bench;

import io.pdgateway.bench.connections.ConnectionTimeoutsBenchmark;
import io.pdgateway.bench.connections.ConnectionTimeoutsBenchmark.PhaseResult;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bench connections}: slowloris and idle keep-alive connections against a pd-gateway process. */
@Command(name = "connections", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Open slowloris connections (one request-head byte every few seconds), then idle kept-alive "
                + "connections, against a pd-gateway process over one simulated pod, and report when the gateway "
                + "closes them, whether one ordinary request a second is served meanwhile, and the gateway's open "
                + "files and memory. The defaults (the gateway's own default limits) take about 3 minutes; the "
                + "process needs an open-file limit above --idle (ulimit -n).")
public final class BenchConnectionsCommand implements Callable<Integer> {
    @Option(names = "--slowloris", defaultValue = "500", description = "Slowloris connections (default: ${DEFAULT-VALUE}).")
    int slowloris;

    @Option(names = "--byte-interval", paramLabel = "SECONDS", defaultValue = "5",
            description = "Seconds between two bytes of a slowloris connection (default: ${DEFAULT-VALUE}).")
    double byteInterval;

    @Option(names = "--idle", defaultValue = "5000", description = "Idle kept-alive connections (default: ${DEFAULT-VALUE}).")
    int idle;

    @Option(names = "--header-timeout", paramLabel = "SECONDS", defaultValue = "60",
            description = "The gateway's PD_GATEWAY_REQUEST_HEADER_TIMEOUT_SECONDS (default: ${DEFAULT-VALUE}, its default).")
    double headerTimeout;

    @Option(names = "--keepalive-timeout", paramLabel = "SECONDS", defaultValue = "75",
            description = "The gateway's PD_GATEWAY_KEEPALIVE_TIMEOUT_SECONDS (default: ${DEFAULT-VALUE}, its default).")
    double keepAliveTimeout;

    @Option(names = "--grace", paramLabel = "SECONDS", defaultValue = "20",
            description = "How long past each limit a phase waits before counting a connection as not closed "
                    + "(default: ${DEFAULT-VALUE}).")
    double grace;

    @Override
    public Integer call() throws Exception {
        List<PhaseResult> results = new ConnectionTimeoutsBenchmark(new ConnectionTimeoutsBenchmark.Settings(slowloris,
                byteInterval, idle, headerTimeout, keepAliveTimeout, grace), System.out).run();
        boolean allClosed = results.stream().allMatch(r -> r.closed() == r.opened() && r.opened() == r.connections());
        boolean served = results.stream().allMatch(r -> r.probesOk() == r.probes());
        System.out.println(allClosed && served ? "every connection closed by the gateway; every probe served"
                : "NOT every connection closed or NOT every probe served: see above");
        return allClosed && served ? 0 : 1;
    }
}
