package io.pdgateway.bench.overhead;

import io.pdgateway.bench.load.ChatTarget;
import io.pdgateway.bench.load.Endpoint;
import io.pdgateway.bench.load.StreamingChatClient;
import io.pdgateway.core.spec.SpecLabels;
import io.pdgateway.sim.cluster.LoopbackClusterShape;
import io.pdgateway.sim.cluster.PodManifest;
import io.pdgateway.sim.cluster.LoopbackCluster;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import io.pdgateway.workload.prompt.PromptSynthesizer;
import io.pdgateway.server.cli.GatewayVertx;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gateway overhead on one hop: one streaming workload sent (a) straight to a simulated pod that answers at once, (b)
 * through a pd-gateway process routing to that pod with a non-PD strategy (so only proxying is measured), (c) through
 * nginx as a plain reverse proxy; each prompt size measured by {@link SizeMeasurement}, the direct path the reference.
 */
public final class OverheadBenchmark {
    public static final String DIRECT = "direct";
    public static final String GATEWAY = "pd-gateway";
    public static final String NGINX = "nginx";
    /** The scenario this class measures: one proxy hop in front of one standard pod. */
    public static final String SINGLE_HOP = "single hop";
    /**
     * "A simulated pod that answers at once": 1e-4 turns a 7 ms decode step into under a microsecond, so a whole
     * answer is written in one engine tick and the pod's own time is negligible next to any proxy's.
     */
    static final double INSTANT_TIME_SCALE = 1e-4;
    static final String SIM_HOST = "127.0.0.2";

    private final OverheadSettings settings;
    private final PrintStream out;

    public OverheadBenchmark(OverheadSettings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    /** Runs everything; the notes list says what was skipped and why (nginx missing, ...). */
    public List<SizeResult> run(List<String> notes) throws IOException {
        Path dir = Files.createTempDirectory("pd-gateway-overhead");
        // The pods and the load generator on epoll as the gateway is: the rig, shared by every target, costs less.
        Vertx pods = Vertx.vertx(GatewayVertx.options());
        Vertx clients = Vertx.vertx(GatewayVertx.options());
        List<AutoCloseable> closing = new ArrayList<>();
        try {
            Path podFile = dir.resolve("pods.yaml");
            SimPod sim = startInstantPod(pods, podFile);
            Map<String, Endpoint> targets = new LinkedHashMap<>();
            Map<String, ProcessCpu> processes = new LinkedHashMap<>();
            targets.put(DIRECT, Endpoint.local(SIM_HOST, sim.port()));
            out.println("starting a pd-gateway process (ROUTING_ALGORITHM=random over one pod)...");
            GatewayChild gateway = GatewayChild.start(podFile);
            closing.add(gateway);
            targets.put(GATEWAY, Endpoint.local("127.0.0.1", gateway.port()));
            ProcessCpu.of(gateway.pid()).ifPresent(cpu -> processes.put(GATEWAY, cpu));
            for (GatewayVariant variant : settings.gatewayVariants()) {
                out.println("starting " + variant.target() + " (" + variant.describe() + ")...");
                GatewayChild child = GatewayChild.start(podFile, variant.settings(), variant.jvmOptions());
                closing.add(child);
                targets.put(variant.target(), Endpoint.local("127.0.0.1", child.port()));
                ProcessCpu.of(child.pid()).ifPresent(cpu -> processes.put(variant.target(), cpu));
            }
            NginxProxy.find(settings.nginx()).ifPresentOrElse(binary -> {
                try {
                    NginxProxy nginx = NginxProxy.start(binary, dir.resolve("nginx"), SIM_HOST, sim.port());
                    closing.add(nginx);
                    targets.put(NGINX, Endpoint.local("127.0.0.1", nginx.port()));
                    ProcessCpu.of(nginx.pid()).ifPresent(cpu -> processes.put(NGINX, cpu));
                    out.println("nginx " + binary + " on port " + nginx.port());
                } catch (IOException e) {
                    notes.add("nginx failed to start, so there is no reference proxy: " + e.getMessage());
                }
            }, () -> notes.add("nginx not found (install it: apt-get install -y nginx, or pass --nginx PATH); "
                    + "no reference proxy measured"));
            if (settings.jvmReferences()) {
                for (String name : ReferenceProxyChild.NAMES) {
                    ReferenceProxyChild reference = ReferenceProxyChild.start(name, SIM_HOST, sim.port());
                    closing.add(reference);
                    targets.put(reference.name(), Endpoint.local("127.0.0.1", reference.port()));
                    ProcessCpu.of(reference.pid()).ifPresent(cpu -> processes.put(reference.name(), cpu));
                }
            }
            Map<String, ChatTarget> chat = new LinkedHashMap<>();
            targets.forEach((name, endpoint) -> chat.put(name, StreamingChatClient.open(clients, endpoint,
                    LoopbackCluster.MODEL, Map.of())));
            List<SizeResult> results = new ArrayList<>();
            SizeMeasurement measurement = new SizeMeasurement(settings, out);
            for (int tokens : settings.promptTokens()) {
                results.add(measurement.measure(SINGLE_HOP, tokens, chat, processes));
            }
            chat.values().forEach(c -> c.close().await());
            return results;
        } finally {
            for (AutoCloseable c : closing) {
                try {
                    c.close();
                } catch (Exception e) {
                    notes.add("could not stop a child process: " + e);
                }
            }
            clients.close().await();
            pods.close().await();
        }
    }

    /**
     * One simulated vLLM pod that answers at once, and a pod file naming it as a standard pod: what the one-hop
     * benchmarks (this one, {@code bench connections}) put a gateway process in front of.
     */
    public static SimPod startInstantPod(Vertx vertx, Path podFile) {
        SimPod sim = SimPod.start(vertx, SimConfig.builder().role(SimRole.COMBINED).host(SIM_HOST)
                .modelName(LoopbackCluster.MODEL).timeScale(INSTANT_TIME_SCALE).seed(1).build()).await();
        PodManifest.write(podFile, List.of(new PodManifest.Entry("default", "engine-0", Map.of(
                SpecLabels.MODEL_NAME, LoopbackCluster.MODEL, SpecLabels.PORT, Integer.toString(sim.port())),
                Map.of(SpecLabels.CONFIG, LoopbackClusterShape.COMBINED), SIM_HOST, true)));
        return sim;
    }

    public static String sizeLabel(int promptTokens) {
        int bytes = promptTokens * PromptSynthesizer.CHARS_PER_TOKEN;
        return bytes >= 1024 ? (bytes / 1024) + " KB" : bytes + " B";
    }
}
