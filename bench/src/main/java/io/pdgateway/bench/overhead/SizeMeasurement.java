package io.pdgateway.bench.overhead;

import io.pdgateway.bench.load.ChatTarget;
import io.pdgateway.bench.load.LoadRunner;
import io.pdgateway.bench.load.ProgressLine;
import io.pdgateway.workload.LoadRequest;
import io.pdgateway.workload.LoadSchedule;
import io.pdgateway.workload.Slo;
import io.pdgateway.workload.WorkloadShaping;
import io.pdgateway.workload.prompt.PromptPlan;
import io.pdgateway.workload.report.RunReport;
import io.pdgateway.workload.report.RunSummary;
import io.pdgateway.workload.run.RunRecording;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.SplittableRandom;

/**
 * One prompt size over a set of targets, the first of which is the reference (the pod itself, or a client running
 * both PD legs itself): a latency comparison at a fixed rate, interleaved in rounds so machine noise hits every target
 * alike, then a rate search per target for the highest rate it answers without an error and with a first-token p99
 * within one common limit, twice the reference's p99 in that comparison (the median of its rounds' p99s; why the first
 * token: {@link OverheadReport}).
 * One limit for every target, because judging each against its own light-load p99 rewards a target for being slow at
 * light load.
 */
final class SizeMeasurement {
    /** The JIT warm-up in this many parts, the targets taking turns (see {@link #measure}). */
    static final int WARMUP_PARTS = 4;
    /**
     * The JIT warm-up holds at most this many requests in flight ({@link LoadRunner}'s cap): far more than a measured
     * round at the comparison's rate keeps, far fewer than the 1,251 an open-loop warm-up of 200 KB prompts at 400 a
     * second piled up on two cores, after which the gateway's resident memory stood at 5.3 GB for the measured rounds.
     */
    static final int WARMUP_MAX_IN_FLIGHT = 32;
    /** Each target gets this much load at the comparison's rate first, unreported: connection pools warm up. */
    static final double WARMUP_SECONDS = 5;
    /** Rate-search steps stop once the bracket is within 10 % of the rate found. */
    static final double SEARCH_RESOLUTION = 0.1;
    /** Search steps draw their arrivals from their own seeds, the same for every target at the same step. */
    static final long SEARCH_SEED = 100;
    /** Goodput is not what this benchmark is about; an SLO is still needed to summarise. */
    static final Slo NO_SLO = new Slo(1_000, 100);
    /** How long the proxies' CPU is read with nothing sent: their own work (scrapes, timers) over whole clock ticks. */
    static final long IDLE_MILLIS = 3_000;

    private final OverheadSettings settings;
    private final PrintStream out;

    SizeMeasurement(OverheadSettings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    /**
     * @param targets by name, the reference first
     * @param processes the proxies' processes by target name, for their CPU per request; targets without one (the pod,
     *     a client running the legs) have no CPU figure
     */
    SizeResult measure(String scenario, int promptTokens, Map<String, ? extends ChatTarget> targets,
            Map<String, ProcessCpu> processes) {
        String size = OverheadBenchmark.sizeLabel(promptTokens);
        String reference = targets.keySet().iterator().next();
        if (promptTokens == settings.promptTokens().get(0) && settings.warmupRequests() > 0) {
            // The same request path serves every size, so one burst compiles it for all of them.
            double seconds = settings.warmupRequests() / settings.warmupRate();
            out.printf(Locale.ROOT, "%n== %s: JIT warm-up, %d requests per target at %.0f req/s%n", scenario,
                    settings.warmupRequests(), settings.warmupRate());
            LoadSchedule batch = workload(promptTokens, settings.warmupRate(), JitSettling.BATCH_SECONDS, 0);
            // In parts, the targets taking turns: warmed one after the other, the first JVM had the others' whole
            // warm-up to finish compiling in the background, and a second gateway process then compiled about twice
            // as much in the measured rounds (three paired runs, 2026-12-06).
            for (int part = 0; part < WARMUP_PARTS; part++) {
                for (Map.Entry<String, ? extends ChatTarget> target : inRoundOrder(targets, part)) {
                    warmUp(target.getValue(), workload(promptTokens, settings.warmupRate(), seconds / WARMUP_PARTS,
                            part), "  JIT warm-up " + target.getKey() + " ");
                }
            }
            targets.forEach((name, client) -> JitSettling.settle(name, processes.getOrDefault(name,
                    ProcessCpu.NONE)::compilerNanos, System::nanoTime, settings.jitSettleSeconds(),
                    () -> warmUp(client, batch, "  JIT settling " + name + " "), out));
        }
        double sliceSeconds = OverheadSettings.seconds(settings.sliceSeconds(), settings.fixedRate());
        out.printf(Locale.ROOT, "%n== %s, prompts of %s: warm-up, then %d rounds of %.1f s per target at %.0f req/s%n",
                scenario, size, settings.rounds(), sliceSeconds, settings.fixedRate());
        targets.forEach((name, client) -> runLoad(client, workload(promptTokens, settings.fixedRate(), WARMUP_SECONDS,
                0), "  warm-up " + name + " "));
        Map<String, List<RunRecording>> slices = new LinkedHashMap<>();
        Map<String, List<Double>> cpu = new LinkedHashMap<>();
        Map<String, List<Double>> compiler = new LinkedHashMap<>();
        Map<String, List<Double>> outside = new LinkedHashMap<>();
        Map<String, List<Double>> p99s = new LinkedHashMap<>();
        Map<String, List<Double>> host = new LinkedHashMap<>();
        Map<String, Wakeups> wakeups = new LinkedHashMap<>();
        for (int round = 0; round < settings.rounds(); round++) {
            for (Map.Entry<String, ? extends ChatTarget> target : inRoundOrder(targets, round)) {
                ProcessCpu process = processes.getOrDefault(target.getKey(), ProcessCpu.NONE);
                long before = process.nanos();
                long compiledBefore = process.compilerNanos();
                HostCpu hostBefore = HostCpu.read();
                Wakeups wakeupsBefore = process.wakeups();
                RunRecording slice = runLoad(target.getValue(), workload(promptTokens, settings.fixedRate(),
                        sliceSeconds, round), "  " + target.getKey() + " round " + (round + 1) + " ");
                slices.computeIfAbsent(target.getKey(), k -> new ArrayList<>()).add(slice);
                HostCpu hostAfter = HostCpu.read();
                Wakeups wakeupsAfter = process.wakeups();
                RunSummary summary = RunSummary.of(slice, NO_SLO);
                int requests = summary.requests();
                wakeups.merge(target.getKey(), wakeupsAfter.since(wakeupsBefore, requests), Wakeups::plus);
                host.computeIfAbsent(target.getKey(), k -> new ArrayList<>())
                        .add(hostAfter.microsPerRequestSince(hostBefore, requests));
                p99s.computeIfAbsent(target.getKey(), k -> new ArrayList<>()).add(summary.ttft().p99());
                double micros = ProcessCpu.microsPerRequest(before, process.nanos(), requests);
                double compiling = ProcessCpu.microsPerRequest(compiledBefore, process.compilerNanos(), requests);
                cpu.computeIfAbsent(target.getKey(), k -> new ArrayList<>()).add(micros);
                compiler.computeIfAbsent(target.getKey(), k -> new ArrayList<>()).add(compiling);
                outside.computeIfAbsent(target.getKey(), k -> new ArrayList<>()).add(micros - compiling);
                if (!Double.isNaN(micros)) {
                    out.printf(Locale.ROOT, "    p99 TTFT %.2f ms; %.0f µs of CPU a request, compiling %.0f of it%n",
                            summary.ttft().p99(), micros, compiling);
                }
            }
        }
        // After the rounds, not before: the warm-up's compilations still running then are not the proxy's idle cost.
        Map<String, Double> idle = idleMillisPerSecond(processes);
        Map<String, RunReport> fixed = new LinkedHashMap<>();
        for (Map.Entry<String, ? extends ChatTarget> target : targets.entrySet()) {
            fixed.put(target.getKey(), RunReport.of(scenario + " " + size + " " + target.getKey(),
                    target.getValue().endpoint().toString(), RunRecording.concat(slices.get(target.getKey())), NO_SLO));
        }
        // Every target is judged against the reference's p99, the limit a user's latency budget would set: the median
        // of its rounds' p99s, because a p99 of a few hundred requests is their few slowest, and one pause of the load
        // generator's JVM in one round once made the pooled p99 47 ms against 1.5 ms in the next run, so every target
        // passed steps it should have failed.
        double baseline = median(p99s.get(reference));
        Map<String, RateSearch> searches = new LinkedHashMap<>();
        for (String target : targets.keySet()) {
            if (settings.searchSteps() > 0 && baseline > 0) {
                searches.put(target, new RateSearch(baseline, settings.searchStart(), settings.searchMax(),
                        settings.searchSteps(), SEARCH_RESOLUTION));
            }
        }
        searchInterleaved(searches, targets, processes, promptTokens);
        List<TargetResult> results = new ArrayList<>();
        // A target without a process has only unknown readings: its medians are NaN, ProxyCpu.NONE.
        fixed.forEach((name, report) -> results.add(new TargetResult(name, report, searches.get(name),
                new ProxyCpu(median(cpu.get(name)), median(compiler.get(name)), idle.getOrDefault(name, Double.NaN),
                        median(outside.get(name))),
                p99s.get(name), median(host.get(name)), wakeups.getOrDefault(name, Wakeups.UNKNOWN))));
        return new SizeResult(scenario, promptTokens, results);
    }

    /**
     * The targets in the order a round (or a search's round of steps) measures them: as listed in even rounds,
     * reversed in odd ones. In one order throughout, the target measured after the gateway read 7-12 % more CPU a
     * request than the gateway in an A/A run of two identical gateway processes (2026-12-06): a place in the round
     * can carry a cost of its own, which an even number of rounds spreads over every target alike.
     */
    static <T> List<Map.Entry<String, T>> inRoundOrder(Map<String, T> targets, int round) {
        List<Map.Entry<String, T>> order = new ArrayList<>(targets.entrySet());
        if (round % 2 == 1) {
            Collections.reverse(order);
        }
        return order;
    }

    /**
     * Runs the targets' rate searches side by side: each round, every search still going takes one step. While they
     * double they offer the same rates, so their p99s compare at equal load, and a noisy minute on this shared
     * machine lands on all of them rather than on whichever target it happened to fall.
     */
    private void searchInterleaved(Map<String, RateSearch> searches, Map<String, ? extends ChatTarget> targets,
            Map<String, ProcessCpu> processes, int promptTokens) {
        boolean stepped = true;
        for (int round = 0; stepped; round++) {
            stepped = false;
            for (Map.Entry<String, RateSearch> entry : inRoundOrder(searches, round)) {
                RateSearch search = entry.getValue();
                OptionalDouble rate = search.next();
                if (rate.isEmpty()) {
                    continue;
                }
                stepped = true;
                double seconds = OverheadSettings.seconds(settings.stepSeconds(), rate.getAsDouble());
                ProcessCpu process = processes.getOrDefault(entry.getKey(), ProcessCpu.NONE);
                long before = process.nanos();
                HostCpu hostBefore = HostCpu.read();
                RunRecording run = runLoad(targets.get(entry.getKey()), workload(promptTokens, rate.getAsDouble(),
                        seconds, SEARCH_SEED + round), String.format(Locale.ROOT,
                        "  %s search %.0f req/s ", entry.getKey(), rate.getAsDouble()));
                long after = process.nanos();
                HostCpu hostAfter = HostCpu.read();
                double coresBusy = hostAfter.coresBusySince(hostBefore);
                RunSummary summary = RunSummary.of(run, NO_SLO);
                RateStep judged = search.record(new RateStep(rate.getAsDouble(), summary.requests(), summary.errors(),
                        summary.ttft().p99(), false, ProcessCpu.microsPerRequest(before, after, summary.requests()),
                        coresBusy));
                out.printf(Locale.ROOT, "    p99 TTFT %.2f ms (limit %.2f), %d errors: %s%s; host: %.2f of %d cores "
                        + "busy%n", judged.p99Millis(), search.limitMillis(), judged.errors(),
                        judged.passed() ? "sustained" : "not sustained",
                        Double.isNaN(judged.cpuMicrosPerRequest()) ? "" : String.format(Locale.ROOT,
                                "; %.0f µs of CPU a request", judged.cpuMicrosPerRequest()),
                        coresBusy, hostAfter.cpus());
            }
        }
    }

    /** The median of the values that are numbers, NaN when none is. */
    static double median(List<Double> values) {
        double[] known = values.stream().mapToDouble(Double::doubleValue).filter(v -> !Double.isNaN(v)).sorted()
                .toArray();
        int n = known.length;
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? known[n / 2] : (known[n / 2 - 1] + known[n / 2]) / 2;
    }

    /**
     * Each proxy's CPU in milliseconds a second over {@link #IDLE_MILLIS} with nothing sent, all read over the same
     * quiet seconds: the part of a request's CPU figure at a light rate that is not the request's.
     */
    private Map<String, Double> idleMillisPerSecond(Map<String, ProcessCpu> processes) {
        Map<String, Long> before = new LinkedHashMap<>();
        processes.forEach((name, process) -> before.put(name, process.nanos()));
        if (before.isEmpty()) {
            return Map.of();
        }
        long start = System.nanoTime();
        ChildProcess.sleep(IDLE_MILLIS);
        double seconds = (System.nanoTime() - start) / 1e9;
        Map<String, Double> idle = new LinkedHashMap<>();
        processes.forEach((name, process) -> {
            long after = process.nanos();
            long was = before.get(name);
            idle.put(name, was < 0 || after < 0 ? Double.NaN : (after - was) / 1e6 / seconds);
        });
        return idle;
    }

    private RunRecording runLoad(ChatTarget client, LoadSchedule workload, String label) {
        return new LoadRunner(client, ProgressLine.to(out, label), settings.timeoutMillis()).run(workload);
    }

    /** Load that only warms: capped in flight, so a warm-up faster than the rig carries never leaves a queue behind. */
    private void warmUp(ChatTarget client, LoadSchedule workload, String label) {
        new LoadRunner(client, ProgressLine.to(out, label), settings.timeoutMillis(), WARMUP_MAX_IN_FLIGHT)
                .run(workload);
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
                OverheadBenchmark.sizeLabel(promptTokens), settings.outputTokens(), rate),
                WorkloadShaping.none().apply(requests));
    }
}
