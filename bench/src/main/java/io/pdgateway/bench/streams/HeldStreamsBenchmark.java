package io.pdgateway.bench.streams;

import io.pdgateway.bench.overhead.GatewayChild;
import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.core.spec.SpecStrategies;
import io.pdgateway.sim.FaultConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import io.pdgateway.sim.TimingProfile;
import io.pdgateway.sim.cluster.LoopbackCluster;
import io.pdgateway.sim.cluster.LoopbackClusterShape;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Many live PD streams through one pd-gateway process: simulated vLLM prefill and decode pods (in this process) whose
 * decodes hold every stream open after its first token, and a client that opens the streams a window at a time.
 * Phase 1, the gateway's default limits: every stream must get its first token, and the gateway's heap after a full
 * collection must stay under the limit; its memory, threads and open files are read with 0 and with every stream
 * open, which gives the cost of one stream. Phase 2, a fresh gateway with a low per-pod connection limit: more
 * streams than the decode pods may hold; the excess must get 503 with Retry-After and one of the two refusal codes,
 * and the gateway's /metrics must count exactly those refusals and show the held ones in use.
 */
public final class HeldStreamsBenchmark {
    /**
     * Fast pods (a tenth of an H100's time: a prefill in about 2 ms), yet a prefill's KV still waits 48 s for its decode
     * (vLLM's 480 s abort timeout, scaled): the run measures the gateway holding streams, not the engines.
     */
    private static final double TIME_SCALE = 0.1;
    /** The gateway lets each HTTP/2 client connection carry 100 streams (GatewayServer). */
    private static final int STREAMS_PER_CONNECTION = 100;
    /** Streams opened and closed before the idle reading, so that it includes warmed-up code and pools. */
    private static final int WARM_UP_STREAMS = 200;
    private static final long SETTLE_TIMEOUT_MS = 60_000;

    /**
     * @param streams phase 1's concurrent streams
     * @param window streams waiting for their first token at once (the ramp)
     * @param firstTokenSeconds how long a stream may take to its first token before it counts as failed
     * @param heapLimitMb phase 1 fails above this heap after a full collection
     * @param lowLimit phase 2's PD_GATEWAY_UPSTREAM_MAX_CONNECTIONS_PER_POD
     * @param lowWaiting phase 2's PD_GATEWAY_UPSTREAM_MAX_WAITING_PER_POD
     * @param lowWaitSeconds phase 2's PD_GATEWAY_UPSTREAM_WAIT_TIMEOUT
     * @param lowStreams phase 2's streams, all opened at once
     * @param classHistogramTop phase 1 also prints the classes whose live bytes grew most with the streams (0: not)
     */
    public record Settings(int streams, int prefillPods, int decodePods, int window, double firstTokenSeconds,
            long heapLimitMb, int lowLimit, int lowWaiting, double lowWaitSeconds, int lowStreams,
            int classHistogramTop) {}

    /** How the streams of one phase ended. */
    private static final class Tally {
        final AtomicInteger firstTokens = new AtomicInteger();
        final Map<String, AtomicInteger> refused = new ConcurrentHashMap<>();
        final AtomicInteger refusedWithoutRetryAfter = new AtomicInteger();
        final Map<String, AtomicInteger> failed = new ConcurrentHashMap<>();

        void add(HeldStreamClient.Outcome o) {
            if (o.firstToken()) {
                firstTokens.incrementAndGet();
            } else if (o.status() == 503 && o.errorCode() != null) {
                refused.computeIfAbsent(o.errorCode(), k -> new AtomicInteger()).incrementAndGet();
                if (o.retryAfter() == null) {
                    refusedWithoutRetryAfter.incrementAndGet();
                }
            } else {
                String why = o.status() == 0 ? o.failure() : "http " + o.status() + " " + o.errorCode() + ": "
                        + o.failure();
                failed.computeIfAbsent(why.length() > 100 ? why.substring(0, 100) : why, k -> new AtomicInteger())
                        .incrementAndGet();
            }
        }

        int refusedTotal() {
            return refused.values().stream().mapToInt(AtomicInteger::get).sum();
        }

        int failedTotal() {
            return failed.values().stream().mapToInt(AtomicInteger::get).sum();
        }
    }

    private final Settings settings;
    private final PrintStream out;
    private boolean pass = true;

    public HeldStreamsBenchmark(Settings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    /** Runs both phases; true when every check passed. */
    public boolean run() throws IOException, InterruptedException {
        out.println("load average at start: " + loadAverage());
        Path dir = Files.createTempDirectory("pd-gateway-streams");
        Path podFile = dir.resolve("pods.yaml");
        Vertx vertx = Vertx.vertx();
        try {
            LoopbackCluster cluster = LoopbackCluster.start(vertx, new LoopbackClusterShape(1, settings.prefillPods(),
                    settings.decodePods(), 0, null, null, TimingProfile.llama3_8b_h100(), TIME_SCALE), podFile).await();
            try {
                for (SimPod sim : cluster.sims()) {
                    if (sim.config().role() == SimRole.DECODE) {
                        sim.setFaults(FaultConfig.none().withHangAfterTokens(1)); // held open after the first token
                    }
                }
                out.printf(Locale.ROOT, "pods: %d prefill + %d decode (vLLM, simulated; decodes hold each stream after "
                        + "its first token)%n", settings.prefillPods(), settings.decodePods());
                defaultLimits(vertx, podFile);
                lowLimit(vertx, podFile);
            } finally {
                cluster.close().await();
            }
        } finally {
            vertx.close().await();
        }
        out.println("load average at end: " + loadAverage());
        out.println(pass ? "PASS" : "FAIL");
        return pass;
    }

    private void defaultLimits(Vertx vertx, Path podFile) throws IOException, InterruptedException {
        out.printf(Locale.ROOT, "%nphase 1: %,d streams, the gateway's default limits%n", settings.streams());
        try (GatewayChild gateway = GatewayChild.start(podFile, gatewayEnv(Map.of()))) {
            GatewayProbe probe = new GatewayProbe(gateway.pid(), gateway.port());
            try (HeldStreamClient warm = new HeldStreamClient(vertx, gateway.port(), connections(WARM_UP_STREAMS))) {
                open(warm, WARM_UP_STREAMS, settings.window(), "warm-up");
            }
            awaitNothingInUse(probe);
            GatewayProbe.Reading idle = probe.read();
            Map<String, Long> idleClasses = settings.classHistogramTop() > 0 ? probe.classHistogram() : Map.of();
            out.println("  with 0 streams open:       " + idle.describe());
            try (HeldStreamClient client = new HeldStreamClient(vertx, gateway.port(),
                    connections(settings.streams()))) {
                long started = System.nanoTime();
                Tally tally = open(client, settings.streams(), settings.window(), "phase 1");
                double seconds = (System.nanoTime() - started) / 1e9;
                GatewayProbe.Reading full = probe.read();
                String metrics = metrics(probe, gateway);
                out.printf(Locale.ROOT, "  %,d of %,d streams got their first token in %.1f s (%.0f streams/s); "
                        + "refused %d, failed %d %s%n", tally.firstTokens.get(), settings.streams(), seconds,
                        settings.streams() / seconds, tally.refusedTotal(), tally.failedTotal(), tally.failed);
                out.printf(Locale.ROOT, "  with %,d streams open:  %s%n", tally.firstTokens.get(), full.describe());
                out.printf(Locale.ROOT, "  decode connections in use (gateway /metrics): %.0f in all, %.0f on the "
                        + "busiest pod; refused %.0f%n", inUse(metrics, "decode-"), GatewayProbe.max(metrics,
                        "pd_gateway_upstream_connections_in_use", "pod_name=\"decode-"), refusedOnMetrics(metrics));
                int held = Math.max(1, tally.firstTokens.get());
                out.printf(Locale.ROOT, "  per open stream: heap %.1f KB, direct buffers %.2f KB, RSS %.1f KB, "
                        + "open files %.2f%n", (full.heapAfterGcBytes() - idle.heapAfterGcBytes()) / 1024.0 / held,
                        (full.directBytes() - idle.directBytes()) / 1024.0 / held,
                        (full.rssBytes() - idle.rssBytes()) / 1024.0 / held,
                        (full.openFiles() - idle.openFiles()) / (double) held);
                if (settings.classHistogramTop() > 0) {
                    out.print("  live bytes grown most, per open stream (jcmd GC.class_histogram):\n"
                            + GatewayProbe.grownMost(idleClasses, probe.classHistogram(), held,
                                    settings.classHistogramTop()));
                }
                check(tally.firstTokens.get() == settings.streams(), "every stream got its first token");
                check(full.heapAfterGcBytes() <= settings.heapLimitMb() * 1024 * 1024, "heap after GC <= "
                        + settings.heapLimitMb() + " MB");
                check(refusedOnMetrics(metrics) == 0, "no refusal at the default limits");
            }
        }
    }

    private void lowLimit(Vertx vertx, Path podFile) throws IOException, InterruptedException {
        int capacity = settings.lowLimit() * settings.decodePods();
        out.printf(Locale.ROOT, "%nphase 2: %,d streams at once, %d connections per pod (%d on %d decode pods), "
                + "%d may wait %.1f s%n", settings.lowStreams(), settings.lowLimit(), capacity, settings.decodePods(),
                settings.lowWaiting(), settings.lowWaitSeconds());
        try (GatewayChild gateway = GatewayChild.start(podFile, gatewayEnv(Map.of(
                SpecEnv.UPSTREAM_MAX_CONNECTIONS_PER_POD, Integer.toString(settings.lowLimit()),
                SpecEnv.UPSTREAM_MAX_WAITING_PER_POD, Integer.toString(settings.lowWaiting()),
                SpecEnv.UPSTREAM_WAIT_TIMEOUT, Double.toString(settings.lowWaitSeconds()))));
                HeldStreamClient client = new HeldStreamClient(vertx, gateway.port(),
                        connections(settings.lowStreams()))) {
            GatewayProbe probe = new GatewayProbe(gateway.pid(), gateway.port());
            Tally tally = open(client, settings.lowStreams(), settings.lowStreams(), "phase 2");
            String metrics = metrics(probe, gateway);
            double refusedMetric = refusedOnMetrics(metrics);
            double queueFull = GatewayProbe.sum(metrics, "pd_gateway_upstream_rejected_requests_total",
                    "reason=\"queue_full\"");
            double waitTimeout = GatewayProbe.sum(metrics, "pd_gateway_upstream_rejected_requests_total",
                    "reason=\"wait_timeout\"");
            double inUse = inUse(metrics, "decode-");
            double busiest = GatewayProbe.max(metrics, "pd_gateway_upstream_connections_in_use", "pod_name=\"decode-");
            double waiting = GatewayProbe.sum(metrics, "pd_gateway_upstream_requests_waiting", "");
            out.printf(Locale.ROOT, "  clients: %d first tokens, %d refused %s (%d without Retry-After), %d other %s%n",
                    tally.firstTokens.get(), tally.refusedTotal(), tally.refused, tally.refusedWithoutRetryAfter.get(),
                    tally.failedTotal(), tally.failed);
            out.printf(Locale.ROOT, "  gateway /metrics: pd_gateway_upstream_rejected_requests_total %.0f (queue_full "
                    + "%.0f, wait_timeout %.0f); decode connections in use %.0f (busiest pod %.0f); waiting %.0f%n",
                    refusedMetric, queueFull, waitTimeout, inUse, busiest, waiting);
            check(tally.failedTotal() == 0, "every stream got its first token or a 503 refusal");
            check(tally.refusedTotal() > 0 && tally.refusedWithoutRetryAfter.get() == 0,
                    "the excess got 503 with Retry-After");
            check(refusedMetric == tally.refusedTotal(), "/metrics counts every refusal the clients saw");
            check(inUse == tally.firstTokens.get() && busiest <= settings.lowLimit(),
                    "/metrics shows the held streams in use, none above the limit");
        }
    }

    /** Opens {@code count} streams, at most {@code window} waiting for their first token at once. */
    private Tally open(HeldStreamClient client, int count, int window, String name) throws InterruptedException {
        Tally tally = new Tally();
        Semaphore slots = new Semaphore(window);
        CountDownLatch ended = new CountDownLatch(count);
        long deadlineMs = Math.round(settings.firstTokenSeconds() * 1000);
        for (int i = 0; i < count; i++) {
            if (!slots.tryAcquire(deadlineMs, TimeUnit.MILLISECONDS)) {
                break; // the gateway stopped answering: the tally says how far it got
            }
            client.open(body(name, i), deadlineMs).onComplete(outcome -> {
                tally.add(outcome.succeeded() ? outcome.result() : HeldStreamClient.Outcome.failed("client error"));
                slots.release();
                ended.countDown();
            });
            if ((i + 1) % 2_000 == 0) {
                out.printf(Locale.ROOT, "  %s: %,d opened, %,d with a first token%n", name, i + 1,
                        tally.firstTokens.get());
            }
        }
        ended.await(deadlineMs + SETTLE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        return tally;
    }

    private static Buffer body(String name, int i) {
        return Buffer.buffer("{\"model\":\"" + LoopbackCluster.MODEL + "\",\"messages\":[{\"role\":\"user\",\"content\":"
                + "\"" + name + " stream " + i + ": tell me a long story\"}],\"max_tokens\":64,\"stream\":true}");
    }

    private void awaitNothingInUse(GatewayProbe probe) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SETTLE_TIMEOUT_MS);
        while (inUse(probe.metrics(), "") > 0 && System.nanoTime() < deadline) {
            Thread.sleep(200); // polling another process's /metrics; nothing to wait on instead
        }
    }

    private static double inUse(String metrics, String podPrefix) {
        return GatewayProbe.sum(metrics, "pd_gateway_upstream_connections_in_use", "pod_name=\"" + podPrefix);
    }

    private static double refusedOnMetrics(String metrics) {
        return GatewayProbe.sum(metrics, "pd_gateway_upstream_rejected_requests_total", "");
    }

    /** The gateway's /metrics; a failed read reports what the gateway logged last, not only the client's error. */
    private static String metrics(GatewayProbe probe, GatewayChild gateway) throws IOException, InterruptedException {
        try {
            return probe.metrics();
        } catch (IOException e) {
            String exited = gateway.alive() ? "" : " (the gateway exited)";
            throw new IOException("reading the gateway's /metrics: " + e + exited + "; its last output:\n"
                    + gateway.output(), e);
        }
    }

    private static int connections(int streams) {
        return streams / STREAMS_PER_CONNECTION + 16;
    }

    /**
     * PD routing, h2c for the client, and no idle watchdog (neither the spec's nor the gateway's 120 s backstop, which
     * would cut the first streams while the last are still being opened): a held stream is the point, not a hung one.
     */
    private static Map<String, String> gatewayEnv(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(extra);
        env.put(SpecEnv.ROUTING_ALGORITHM, SpecStrategies.PD);
        env.put(SpecEnv.HTTP2_CLEARTEXT, "true");
        env.put(SpecEnv.DECODE_STREAM_IDLE_TIMEOUT, "0");
        env.put(SpecEnv.UPSTREAM_STREAM_IDLE_TIMEOUT, "0");
        return env;
    }

    private void check(boolean ok, String what) {
        out.println("  " + (ok ? "ok:   " : "FAIL: ") + what);
        pass &= ok;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
