package io.pdgateway.bench.overhead;

import io.pdgateway.bench.load.ChatTarget;
import io.pdgateway.bench.load.Endpoint;
import io.pdgateway.bench.load.PdLegsClient;
import io.pdgateway.bench.load.StreamingChatClient;
import io.pdgateway.core.config.TrtScheduleStyle;
import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.core.spec.SpecLabels;
import io.pdgateway.core.spec.SpecStrategies;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import io.pdgateway.sim.cluster.LoopbackCluster;
import io.pdgateway.sim.cluster.PodManifest;
import io.pdgateway.server.cli.GatewayVertx;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Gateway overhead on a prefill/decode pair: per engine, one simulated prefill pod and one decode pod that answer at
 * once, driven (a) by a client that runs both legs itself ({@link PdLegsClient}, the reference) and (b) through a
 * pd-gateway process routing PD over the pair. What the gateway adds is its routing, its leg bodies, its hand-off
 * between the legs and its streaming, against the least a client of the engines' own protocol must do.
 */
public final class PdOverheadBenchmark {
    public static final String CLIENT_LEGS = "client legs";
    /** The engines the PD mode knows how to drive: their model.aibrix.ai/engine values, and trtllm-gen. */
    public static final List<String> ENGINES = Arrays.stream(PdEngine.values()).map(PdEngine::flag).toList();

    /**
     * What each engine named to --pd runs: its pods' engine, the report's title, the reference client's protocol and
     * the TensorRT-LLM schedule every gateway of the run is given (null: the spec's default).
     */
    private enum PdEngine {
        VLLM("vllm", "vllm", "vLLM PD", PdLegsClient.Protocol.VLLM, null),
        SGLANG("sglang", "sglang", "SGLang PD", PdLegsClient.Protocol.SGLANG, null),
        TRTLLM("trtllm", "trtllm", "TensorRT-LLM PD", PdLegsClient.Protocol.TRTLLM, null),
        /** Both legs at once (trtllm is context_first). */
        TRTLLM_GENERATION_FIRST("trtllm-gen", "trtllm", "TensorRT-LLM PD (generation_first)",
                PdLegsClient.Protocol.TRTLLM_GENERATION_FIRST, TrtScheduleStyle.GENERATION_FIRST);

        private final String flag;
        private final String podEngine;
        private final String scenario;
        private final PdLegsClient.Protocol protocol;
        private final TrtScheduleStyle schedule;

        PdEngine(String flag, String podEngine, String scenario, PdLegsClient.Protocol protocol,
                TrtScheduleStyle schedule) {
            this.flag = flag;
            this.podEngine = podEngine;
            this.scenario = scenario;
            this.protocol = protocol;
            this.schedule = schedule;
        }

        String flag() {
            return flag;
        }

        static PdEngine named(String flag) {
            for (PdEngine engine : values()) {
                if (engine.flag.equals(flag)) {
                    return engine;
                }
            }
            throw new IllegalArgumentException("PD mode drives " + ENGINES + ", not " + flag);
        }
    }

    private final OverheadSettings settings;
    private final List<String> engines;
    private final PrintStream out;

    public PdOverheadBenchmark(OverheadSettings settings, List<String> engines, PrintStream out) {
        engines.forEach(PdEngine::named); // refuses a name it does not know before anything starts
        this.settings = settings;
        this.engines = List.copyOf(engines);
        this.out = out;
    }

    /** Every engine's pair in turn, each with its own pods and gateway process; results per engine and size. */
    public List<SizeResult> run(List<String> notes) throws IOException {
        List<SizeResult> results = new ArrayList<>();
        for (String engine : engines) {
            results.addAll(runEngine(engine, notes));
        }
        return results;
    }

    private List<SizeResult> runEngine(String engine, List<String> notes) throws IOException {
        Path dir = Files.createTempDirectory("pd-gateway-overhead-pd");
        // The pods and the load generator on epoll as the gateway is: the rig, shared by every target, costs less.
        Vertx pods = Vertx.vertx(GatewayVertx.options());
        Vertx clients = Vertx.vertx(GatewayVertx.options());
        List<GatewayChild> gateways = new ArrayList<>();
        try {
            PdEngine pd = PdEngine.named(engine);
            String podEngine = pd.podEngine;
            SimPod prefill = startPod(pods, podEngine, SimRole.PREFILL);
            SimPod decode = startPod(pods, podEngine, SimRole.DECODE);
            Path podFile = dir.resolve("pods.yaml");
            PodManifest.write(podFile, List.of(entry(podEngine, "prefill-0", prefill, SpecLabels.ROLE_PREFILL),
                    entry(podEngine, "decode-0", decode, SpecLabels.ROLE_DECODE)));
            out.printf(Locale.ROOT, "starting a pd-gateway process (ROUTING_ALGORITHM=pd over one %s pair)...%n", engine);
            GatewayChild gateway = GatewayChild.start(podFile, scheduled(engine, Map.of(SpecEnv.ROUTING_ALGORITHM,
                    SpecStrategies.PD)));
            gateways.add(gateway);
            Map<String, ChatTarget> targets = new LinkedHashMap<>();
            targets.put(CLIENT_LEGS, PdLegsClient.open(clients, pd.protocol,
                    Endpoint.local(OverheadBenchmark.SIM_HOST, prefill.port()),
                    Endpoint.local(OverheadBenchmark.SIM_HOST, decode.port()), prefill.bootstrapPort(),
                    LoopbackCluster.MODEL));
            targets.put(OverheadBenchmark.GATEWAY, StreamingChatClient.open(clients,
                    Endpoint.local("127.0.0.1", gateway.port()), LoopbackCluster.MODEL, Map.of()));
            Map<String, ProcessCpu> processes = new LinkedHashMap<>();
            ProcessCpu.of(gateway.pid()).ifPresent(cpu -> processes.put(OverheadBenchmark.GATEWAY, cpu));
            for (GatewayVariant variant : settings.gatewayVariants()) {
                out.println("starting " + variant.target() + " (" + variant.describe() + ")...");
                GatewayChild child = GatewayChild.start(podFile, scheduled(engine, routingPd(variant)),
                        variant.jvmOptions());
                gateways.add(child);
                targets.put(variant.target(), StreamingChatClient.open(clients,
                        Endpoint.local("127.0.0.1", child.port()), LoopbackCluster.MODEL, Map.of()));
                ProcessCpu.of(child.pid()).ifPresent(cpu -> processes.put(variant.target(), cpu));
            }
            SizeMeasurement measurement = new SizeMeasurement(settings, out);
            List<SizeResult> results = new ArrayList<>();
            for (int tokens : settings.promptTokens()) {
                results.add(measurement.measure(pd.scenario, tokens, targets, processes));
            }
            targets.values().forEach(t -> t.close().await());
            if (decode.kvMissing() > 0) {
                notes.add(String.format(Locale.ROOT, "%s: %d decode requests arrived without KV-transfer parameters "
                        + "and were prefilled on the decode pod", engine, decode.kvMissing()));
            }
            return results;
        } finally {
            gateways.forEach(GatewayChild::close);
            clients.close().await();
            pods.close().await();
        }
    }

    /** A variant's gateway settings, routing PD over the pair as the deployed gateway does unless it says otherwise. */
    static Map<String, String> routingPd(GatewayVariant variant) {
        Map<String, String> settings = new LinkedHashMap<>(variant.settings());
        settings.putIfAbsent(SpecEnv.ROUTING_ALGORITHM, SpecStrategies.PD);
        return settings;
    }

    /** The engine's TensorRT-LLM schedule (trtllm-gen: generation_first) unless the settings name their own. */
    static Map<String, String> scheduled(String engine, Map<String, String> settings) {
        TrtScheduleStyle schedule = PdEngine.named(engine).schedule;
        if (schedule == null) {
            return settings;
        }
        Map<String, String> scheduled = new LinkedHashMap<>(settings);
        scheduled.putIfAbsent(SpecEnv.TRT_SCHEDULE_STYLE, schedule.specName());
        return scheduled;
    }

    /** The report's title for an engine's runs. */
    public static String scenario(String engine) {
        return PdEngine.named(engine).scenario;
    }

    private static SimPod startPod(Vertx vertx, String engine, SimRole role) {
        // Bootstrap port 0: an ephemeral one, so two runs (or a real engine) on this host never collide.
        return SimPod.start(vertx, SimConfig.builder().engine(engine).role(role).host(OverheadBenchmark.SIM_HOST)
                .modelName(LoopbackCluster.MODEL).timeScale(OverheadBenchmark.INSTANT_TIME_SCALE).bootstrapPort(0)
                .seed(role.ordinal() + 1).build()).await();
    }

    private static PodManifest.Entry entry(String engine, String name, SimPod pod, String role) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(SpecLabels.MODEL_NAME, LoopbackCluster.MODEL);
        labels.put(SpecLabels.PORT, Integer.toString(pod.port()));
        labels.put(SpecLabels.ENGINE, engine);
        labels.put(SpecLabels.ROLE_NAME, role);
        labels.put(SpecLabels.ROLESET_NAME, "pair-0");
        Map<String, String> annotations = pod.bootstrapPort() > 0
                ? Map.of(SpecLabels.SGLANG_BOOTSTRAP_PORT, Integer.toString(pod.bootstrapPort())) : Map.of();
        return new PodManifest.Entry("default", name, labels, annotations, OverheadBenchmark.SIM_HOST, true);
    }
}
