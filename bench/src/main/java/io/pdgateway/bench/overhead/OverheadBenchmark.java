package io.pdgateway.bench.overhead;

import io.pdgateway.bench.load.Endpoint;
import io.pdgateway.bench.load.LoadRunner;
import io.pdgateway.bench.load.ProgressLine;
import io.pdgateway.bench.load.StreamingChatClient;
import io.pdgateway.core.spec.SpecLabels;
import io.pdgateway.sim.cluster.LoopbackClusterShape;
import io.pdgateway.sim.cluster.PodManifest;
import io.pdgateway.sim.cluster.LoopbackCluster;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import io.pdgateway.workload.LoadRequest;
import io.pdgateway.workload.LoadSchedule;
import io.pdgateway.workload.Slo;
import io.pdgateway.workload.WorkloadShaping;
import io.pdgateway.workload.prompt.PromptPlan;
import io.pdgateway.workload.prompt.PromptSynthesizer;
import io.pdgateway.workload.report.RunReport;
import io.pdgateway.workload.report.RunSummary;
import io.pdgateway.workload.run.RunRecording;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.SplittableRandom;

/**
 * Gateway overhead: one streaming workload sent (a) straight to a simulated pod that answers at once, (b) through a
 * pd-gateway process routing to that pod with a non-PD strategy (so only proxying is measured), (c) through nginx as
 * a plain reverse proxy. Per prompt size: a latency comparison at a fixed rate, interleaved in rounds so machine
 * noise hits every target alike, and a rate search per target for the highest rate at which it answers without an
 * error and with a first-byte p99 within one common limit: twice the direct path's p99 in that comparison. One limit
 * for every target, because judging each against its own light-load p99 rewards a target for being slow at light load.
 */
public final class OverheadBenchmark {
    public static final String DIRECT = "direct";
    public static final String GATEWAY = "pd-gateway";
    public static final String NGINX = "nginx";
    /**
     * "A simulated pod that answers at once": 1e-4 turns a 7 ms decode step into under a microsecond, so a whole
     * answer is written in one engine tick and the pod's own time is negligible next to any proxy's.
     */
    static final double INSTANT_TIME_SCALE = 1e-4;
    /** Each target gets this much load first, unreported: the gateway's JIT and connection pools warm up. */
    static final double WARMUP_SECONDS = 5;
    /** Rate-search steps stop once the bracket is within 10 % of the rate found. */
    static final double SEARCH_RESOLUTION = 0.1;
    static final String SIM_HOST = "127.0.0.2";
    /** Search steps draw their arrivals from their own seeds, the same for every target at the same step. */
    static final long SEARCH_SEED = 100;
    /** Goodput is not what this benchmark is about; an SLO is still needed to summarise. */
    static final Slo NO_SLO = new Slo(1_000, 100);

    private final OverheadSettings settings;
    private final PrintStream out;

    public OverheadBenchmark(OverheadSettings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    /** Runs everything; the notes list says what was skipped and why (nginx missing, ...). */
    public List<SizeResult> run(List<String> notes) throws IOException {
        Path dir = Files.createTempDirectory("pd-gateway-overhead");
        Vertx pods = Vertx.vertx();
        Vertx clients = Vertx.vertx();
        List<AutoCloseable> closing = new ArrayList<>();
        try {
            SimPod sim = SimPod.start(pods, SimConfig.builder().role(SimRole.COMBINED).host(SIM_HOST)
                    .modelName(LoopbackCluster.MODEL).timeScale(INSTANT_TIME_SCALE).seed(1).build()).await();
            Path podFile = dir.resolve("pods.yaml");
            PodManifest.write(podFile, List.of(new PodManifest.Entry("default", "engine-0", Map.of(
                    SpecLabels.MODEL_NAME, LoopbackCluster.MODEL, SpecLabels.PORT, Integer.toString(sim.port())),
                    Map.of(SpecLabels.CONFIG, LoopbackClusterShape.COMBINED), SIM_HOST, true)));
            Map<String, Endpoint> targets = new LinkedHashMap<>();
            targets.put(DIRECT, Endpoint.local(SIM_HOST, sim.port()));
            out.println("starting a pd-gateway process (ROUTING_ALGORITHM=random over one pod)...");
            GatewayChild gateway = GatewayChild.start(podFile);
            closing.add(gateway);
            targets.put(GATEWAY, Endpoint.local("127.0.0.1", gateway.port()));
            NginxProxy.find(settings.nginx()).ifPresentOrElse(binary -> {
                try {
                    NginxProxy nginx = NginxProxy.start(binary, dir.resolve("nginx"), SIM_HOST, sim.port());
                    closing.add(nginx);
                    targets.put(NGINX, Endpoint.local("127.0.0.1", nginx.port()));
                    out.println("nginx " + binary + " on port " + nginx.port());
                } catch (IOException e) {
                    notes.add("nginx failed to start, so there is no reference proxy: " + e.getMessage());
                }
            }, () -> notes.add("nginx not found (install it: apt-get install -y nginx, or pass --nginx PATH); "
                    + "no reference proxy measured"));
            Map<String, StreamingChatClient> chat = new LinkedHashMap<>();
            targets.forEach((name, endpoint) -> chat.put(name, StreamingChatClient.open(clients, endpoint,
                    LoopbackCluster.MODEL, Map.of())));
            List<SizeResult> results = new ArrayList<>();
            for (int tokens : settings.promptTokens()) {
                results.add(measureSize(tokens, chat));
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

    private SizeResult measureSize(int promptTokens, Map<String, StreamingChatClient> chat) {
        String size = sizeLabel(promptTokens);
        out.printf(Locale.ROOT, "%n== prompts of %s: warm-up, then %d rounds of %.0f s per target at %.0f req/s%n", size,
                settings.rounds(), settings.sliceSeconds(), settings.fixedRate());
        chat.forEach((name, client) -> runLoad(client, workload(promptTokens, settings.fixedRate(), WARMUP_SECONDS, 0),
                "  warm-up " + name + " "));
        Map<String, List<RunRecording>> slices = new LinkedHashMap<>();
        for (int round = 0; round < settings.rounds(); round++) {
            for (Map.Entry<String, StreamingChatClient> target : chat.entrySet()) {
                RunRecording slice = runLoad(target.getValue(), workload(promptTokens, settings.fixedRate(),
                        settings.sliceSeconds(), round), "  " + target.getKey() + " round " + (round + 1) + " ");
                slices.computeIfAbsent(target.getKey(), k -> new ArrayList<>()).add(slice);
            }
        }
        Map<String, RunReport> fixed = new LinkedHashMap<>();
        for (Map.Entry<String, StreamingChatClient> target : chat.entrySet()) {
            fixed.put(target.getKey(), RunReport.of(size + " " + target.getKey(),
                    target.getValue().endpoint().toString(), RunRecording.concat(slices.get(target.getKey())), NO_SLO));
        }
        // Every target is judged against the direct path's p99: the limit a user's latency budget would set.
        double baseline = fixed.get(DIRECT).summary().ttfb().p99();
        Map<String, RateSearch> searches = new LinkedHashMap<>();
        for (String target : chat.keySet()) {
            if (settings.searchSteps() > 0 && baseline > 0) {
                searches.put(target, new RateSearch(baseline, settings.searchStart(), settings.searchMax(),
                        settings.searchSteps(), SEARCH_RESOLUTION));
            }
        }
        searchInterleaved(searches, chat, promptTokens);
        List<TargetResult> targets = new ArrayList<>();
        fixed.forEach((name, report) -> targets.add(new TargetResult(name, report, searches.get(name))));
        return new SizeResult(promptTokens, targets);
    }

    /**
     * Runs the targets' rate searches side by side: each round, every search still going takes one step. While they
     * double they offer the same rates, so their p99s compare at equal load, and a noisy minute on this shared
     * machine lands on all of them rather than on whichever target it happened to fall.
     */
    private void searchInterleaved(Map<String, RateSearch> searches, Map<String, StreamingChatClient> chat,
            int promptTokens) {
        boolean stepped = true;
        for (int round = 0; stepped; round++) {
            stepped = false;
            for (Map.Entry<String, RateSearch> entry : searches.entrySet()) {
                RateSearch search = entry.getValue();
                OptionalDouble rate = search.next();
                if (rate.isEmpty()) {
                    continue;
                }
                stepped = true;
                RunRecording run = runLoad(chat.get(entry.getKey()), workload(promptTokens, rate.getAsDouble(),
                        settings.stepSeconds(), SEARCH_SEED + round), String.format(Locale.ROOT,
                        "  %s search %.0f req/s ", entry.getKey(), rate.getAsDouble()));
                RunSummary summary = RunSummary.of(run, NO_SLO);
                RateStep judged = search.record(new RateStep(rate.getAsDouble(), summary.requests(), summary.errors(),
                        summary.ttfb().p99(), false));
                out.printf(Locale.ROOT, "    p99 TTFB %.2f ms (limit %.2f), %d errors: %s%n", judged.p99Millis(),
                        search.limitMillis(), judged.errors(), judged.passed() ? "sustained" : "not sustained");
            }
        }
    }

    private RunRecording runLoad(StreamingChatClient client, LoadSchedule workload, String label) {
        return new LoadRunner(client, ProgressLine.to(out, label), settings.timeoutMillis()).run(workload);
    }

    /** Poisson arrivals of one repeated prompt (built once), seeded so every target gets the same arrival times. */
    LoadSchedule workload(int promptTokens, double rate, double seconds, long seed) {
        PromptPlan prompt = PromptPlan.single(promptTokens, PromptPlan.seed(promptTokens, 0));
        SplittableRandom random = new SplittableRandom(seed);
        List<LoadRequest> requests = new ArrayList<>();
        double at = 0;
        while (true) {
            at += -1000.0 / rate * Math.log(1.0 - random.nextDouble());
            if (at > seconds * 1000) {
                break;
            }
            requests.add(new LoadRequest((long) at, prompt, settings.outputTokens(), null));
        }
        return new LoadSchedule(String.format(Locale.ROOT, "%s prompts, %d output tokens, %.0f req/s Poisson",
                sizeLabel(promptTokens), settings.outputTokens(), rate), WorkloadShaping.none().apply(requests));
    }

    public static String sizeLabel(int promptTokens) {
        int bytes = promptTokens * PromptSynthesizer.CHARS_PER_TOKEN;
        return bytes >= 1024 ? (bytes / 1024) + " KB" : bytes + " B";
    }
}
