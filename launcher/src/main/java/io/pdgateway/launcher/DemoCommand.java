package io.pdgateway.launcher;

import io.pdgateway.bench.load.Endpoint;
import io.pdgateway.bench.load.LoadRunner;
import io.pdgateway.bench.load.ProgressLine;
import io.pdgateway.bench.load.StreamingChatClient;
import io.pdgateway.core.config.GatewaySettings;
import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.server.GatewayServer;
import io.pdgateway.sim.cluster.LoopbackClusterShape;
import io.pdgateway.sim.cluster.LoopbackCluster;
import io.pdgateway.server.discovery.PodFileDiscovery;
import io.pdgateway.workload.LoadRequest;
import io.pdgateway.workload.LoadSchedule;
import io.pdgateway.workload.WorkloadShaping;
import io.pdgateway.workload.run.RunRecording;
import io.pdgateway.workload.trace.AzureTraceReader;
import io.pdgateway.workload.trace.BundledTrace;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code demo}: a simulated cluster, the gateway in front of it, a replay of real production traffic, a summary,
 * then the gateway keeps serving for curl until Ctrl-C (or exits with {@code --once}).
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Simulated cluster + gateway + a replay of the Azure 2023 conversation trace.")
public final class DemoCommand implements Callable<Integer> {
    @Option(names = "--port", defaultValue = "8888", description = "Gateway port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--trace", description = "Azure-format trace CSV (default: the bundled head of the Azure 2023 conversation trace).")
    Path trace;

    @Option(names = "--seconds", defaultValue = "60", description = "How much of the trace to replay, in trace seconds (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Option(names = "--speedup", defaultValue = "3", description = "Arrival rate multiplier (default: ${DEFAULT-VALUE}).")
    double speedup;

    @Option(names = "--max-output-tokens", defaultValue = "128", description = "Cap on each request's output (default: ${DEFAULT-VALUE}).")
    int maxOutputTokens;

    @Option(names = "--time-scale", defaultValue = "1.0", description = "Simulated engine speed; 0.5 is twice as fast as an H100 (default: ${DEFAULT-VALUE}).")
    double timeScale;

    /** A request still streaming after a minute is stuck: count it as an error so the demo always ends. */
    static final long REQUEST_TIMEOUT_MS = 60_000;

    @Option(names = "--once", description = "Exit after the summary; exit status 0 only when no request failed.")
    boolean once;

    @Override
    public Integer call() throws Exception {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.putIfAbsent(SpecEnv.PROMPT_LENGTH_BUCKETING, "true");
        GatewaySettings settings = GatewaySettings.fromEnv(env);
        Path dir = Files.createTempDirectory("pd-gateway-demo");
        Path podFile = dir.resolve("pods.yaml");
        Path traceFile = trace != null ? trace : BundledTrace.AZURE_CONVERSATION.extract(dir);
        LoadSchedule requests = new LoadSchedule("Azure 2023 conversation trace",
                new WorkloadShaping(speedup, 0, 0, 0, 0, maxOutputTokens, 0)
                        .apply(LoadRequest.fromTrace(AzureTraceReader.read(traceFile, seconds * 1000L))));

        Vertx vertx = Vertx.vertx();
        LoopbackCluster cluster = LoopbackCluster.start(vertx, LoopbackClusterShape.demo(timeScale), podFile).await();
        PodFileDiscovery discovery = new PodFileDiscovery(vertx, podFile);
        discovery.start();
        GatewayServer gateway;
        try {
            gateway = GatewayServer.start(vertx, discovery, settings, "0.0.0.0", port, 42).await();
        } catch (Exception e) {
            System.out.println("port " + port + " is taken (" + e.getMessage() + "); using a free port instead");
            gateway = GatewayServer.start(vertx, discovery, settings, "0.0.0.0", 0, 42).await();
        }
        System.out.printf("Simulated cluster: 2 vLLM prefill/decode rolesets (prompts 0-2048 tokens) + 1 standard pod "
                + "(2048+), pod file %s%n", podFile);
        System.out.printf("Gateway on port %d. Replaying %d requests (%d s of %s at %.1fx)%n", gateway.port(),
                requests.size(), seconds, trace != null ? traceFile : "the Azure 2023 conversation trace", speedup);

        StreamingChatClient chat = StreamingChatClient.open(vertx, Endpoint.local("127.0.0.1", gateway.port()),
                LoopbackCluster.MODEL, Map.of());
        RunRecording run = new LoadRunner(chat, ProgressLine.to(System.out, ""), REQUEST_TIMEOUT_MS).run(requests);
        RouteSummary summary = RouteSummary.of(run.results());
        System.out.println();
        summary.print(System.out);

        if (once) {
            chat.close().await();
            gateway.close().await();
            cluster.close().await();
            vertx.close().await();
            return summary.errors() == 0 && run.abandoned() == 0 ? 0 : 1;
        }
        System.out.printf("%nThe gateway keeps serving. Try:%n  curl -s http://127.0.0.1:%d/v1/chat/completions "
                + "-H 'Content-Type: application/json' -d '{\"model\":\"%s\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"Hello\"}],\"max_tokens\":16}' -D -%nMetrics: http://127.0.0.1:%d/metrics   "
                + "Stop: Ctrl-C%n", gateway.port(), LoopbackCluster.MODEL, gateway.port());
        new CountDownLatch(1).await();
        return 0;
    }
}
