package io.pdgateway.bench.connections;

import io.pdgateway.bench.overhead.GatewayChild;
import io.pdgateway.bench.overhead.OverheadBenchmark;
import io.pdgateway.core.spec.SpecEnv;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.cluster.LoopbackCluster;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetSocket;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Holds many client connections open against a pd-gateway process the way an attacker would, and measures when the
 * gateway closes them: slowloris connections that send one byte of a request head every few seconds (closed at
 * PD_GATEWAY_REQUEST_HEADER_TIMEOUT_SECONDS), then idle kept-alive connections that were answered once (closed at
 * PD_GATEWAY_KEEPALIVE_TIMEOUT_SECONDS). Meanwhile one ordinary chat request a second must be served. Reports, per
 * phase, how many connections closed and when, the probes' outcome, and the gateway's open files and resident memory
 * (from /proc) at their peak and after. Every phase ends by its deadline (limit plus grace) whatever the gateway does.
 */
public final class ConnectionTimeoutsBenchmark {
    /** Connections opened at once: well under the listener's accept backlog. */
    private static final int CONNECT_BATCH = 200;
    private static final int WARM_UP_REQUESTS = 50;
    /** A request head far longer than any slowloris phase sends, so it never completes. */
    private static final byte[] HEAD = ("POST /v1/chat/completions HTTP/1.1\r\nHost: gateway\r\nContent-Type: "
            + "application/json\r\nX-Padding: " + "p".repeat(1000) + "\r\n").getBytes(StandardCharsets.US_ASCII);

    /**
     * @param slowloris connections trickling a request head
     * @param byteIntervalSeconds seconds between two bytes of a slowloris connection
     * @param idle kept-alive connections left idle after one answered request
     * @param headerTimeoutSeconds the gateway's PD_GATEWAY_REQUEST_HEADER_TIMEOUT_SECONDS
     * @param keepAliveTimeoutSeconds the gateway's PD_GATEWAY_KEEPALIVE_TIMEOUT_SECONDS
     * @param graceSeconds how long past the limit a phase waits before it gives up on a connection
     */
    public record Settings(int slowloris, double byteIntervalSeconds, int idle, double headerTimeoutSeconds,
            double keepAliveTimeoutSeconds, double graceSeconds) {}

    /** One phase's figures; close times in seconds from the connection's start (slowloris) or its answer (idle). */
    public record PhaseResult(String name, int connections, int opened, int closed, double limitSeconds,
            double[] closeSeconds, int probesOk, int probes, double probeMaxMs, long fdsPeak, long fdsAfter,
            long rssPeakKb, long rssAfterKb) {
        public String describe() {
            double[] sorted = closeSeconds.clone();
            Arrays.sort(sorted);
            String times = sorted.length == 0 ? "none closed" : String.format(Locale.ROOT,
                    "closed after min %.1f s, median %.1f s, max %.1f s", sorted[0], sorted[sorted.length / 2],
                    sorted[sorted.length - 1]);
            return String.format(Locale.ROOT, "%s: %d of %d connections opened, %d closed by the gateway (limit %.0f s;"
                    + " %s); probes %d/%d served 200, slowest %.0f ms; gateway open files %d at peak, %d after; "
                    + "RSS %d MB at peak, %d MB after", name, opened, connections, closed, limitSeconds, times,
                    probesOk, probes, probeMaxMs, fdsPeak, fdsAfter, rssPeakKb / 1024, rssAfterKb / 1024);
        }
    }

    private final Settings settings;
    private final PrintStream out;

    public ConnectionTimeoutsBenchmark(Settings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    public List<PhaseResult> run() throws IOException {
        Path dir = Files.createTempDirectory("pd-gateway-connections");
        Vertx vertx = Vertx.vertx();
        try {
            Path podFile = dir.resolve("pods.yaml");
            // The pod answers at once: the probes measure the gateway, not the engine.
            SimPod sim = OverheadBenchmark.startInstantPod(vertx, podFile);
            out.printf(Locale.ROOT, "starting a pd-gateway process (header timeout %s s, keep-alive timeout %s s)...%n",
                    settings.headerTimeoutSeconds(), settings.keepAliveTimeoutSeconds());
            try (GatewayChild gateway = GatewayChild.start(podFile, Map.of(
                    SpecEnv.REQUEST_HEADER_TIMEOUT_SECONDS, Double.toString(settings.headerTimeoutSeconds()),
                    SpecEnv.KEEPALIVE_TIMEOUT_SECONDS, Double.toString(settings.keepAliveTimeoutSeconds())))) {
                Phase phase = new Phase(vertx, gateway);
                // A fresh JVM sets its first connections up slowly (class loading, JIT): warm it before measuring.
                for (int i = 0; i < WARM_UP_REQUESTS; i++) {
                    phase.probe();
                }
                List<PhaseResult> results = new ArrayList<>();
                results.add(phase.slowloris());
                out.println(results.get(0).describe());
                results.add(phase.idle());
                out.println(results.get(1).describe());
                return results;
            } finally {
                sim.close().await();
            }
        } finally {
            vertx.close().await();
        }
    }

    /** Runs the phases against one gateway process. */
    private final class Phase {
        private final Vertx vertx;
        private final GatewayChild gateway;
        private final NetClient net;
        private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

        Phase(Vertx vertx, GatewayChild gateway) {
            this.vertx = vertx;
            this.gateway = gateway;
            this.net = vertx.createNetClient(new NetClientOptions().setConnectTimeout(10_000));
        }

        PhaseResult slowloris() {
            out.printf(Locale.ROOT, "slowloris: %d connections, one header byte every %s s...%n",
                    settings.slowloris(), settings.byteIntervalSeconds());
            Map<NetSocket, Long> startedAt = new ConcurrentHashMap<>();
            Map<NetSocket, Long> closedAt = new ConcurrentHashMap<>();
            List<NetSocket> sockets = open(settings.slowloris(), closedAt);
            long intervalMs = Math.round(settings.byteIntervalSeconds() * 1000);
            List<Long> timers = new ArrayList<>();
            for (NetSocket socket : sockets) {
                startedAt.put(socket, System.nanoTime());
                int[] sent = {0};
                socket.write(Buffer.buffer(new byte[] {HEAD[sent[0]++]}));
                timers.add(vertx.setPeriodic(intervalMs, id -> {
                    if (!closedAt.containsKey(socket)) {
                        socket.write(Buffer.buffer(new byte[] {HEAD[sent[0]++ % HEAD.length]}));
                    }
                }));
            }
            PhaseResult result = watch("slowloris", settings.slowloris(), sockets, startedAt, closedAt,
                    settings.headerTimeoutSeconds());
            timers.forEach(vertx::cancelTimer);
            return result;
        }

        PhaseResult idle() {
            out.printf(Locale.ROOT, "idle keep-alive: %d connections, each answered once and then silent...%n",
                    settings.idle());
            Map<NetSocket, Long> answeredAt = new ConcurrentHashMap<>();
            Map<NetSocket, Long> closedAt = new ConcurrentHashMap<>();
            List<NetSocket> sockets = open(settings.idle(), closedAt);
            for (NetSocket socket : sockets) {
                socket.handler(data -> answeredAt.putIfAbsent(socket, System.nanoTime()));
                socket.write("GET /healthz HTTP/1.1\r\nHost: gateway\r\n\r\n");
            }
            return watch("idle keep-alive", settings.idle(), sockets, answeredAt, closedAt,
                    settings.keepAliveTimeoutSeconds());
        }

        private List<NetSocket> open(int count, Map<NetSocket, Long> closedAt) {
            List<NetSocket> sockets = new ArrayList<>();
            for (int from = 0; from < count; from += CONNECT_BATCH) {
                List<Future<NetSocket>> batch = new ArrayList<>();
                for (int i = from; i < Math.min(count, from + CONNECT_BATCH); i++) {
                    batch.add(net.connect(gateway.port(), "127.0.0.1"));
                }
                Future.join(batch).await();
                for (Future<NetSocket> connected : batch) {
                    if (connected.succeeded()) {
                        NetSocket socket = connected.result();
                        socket.closeHandler(v -> closedAt.put(socket, System.nanoTime()));
                        sockets.add(socket);
                    }
                }
            }
            return sockets;
        }

        /** Probes once a second until every connection closed or the limit plus grace passed; then the figures. */
        private PhaseResult watch(String name, int wanted, List<NetSocket> sockets, Map<NetSocket, Long> from,
                Map<NetSocket, Long> closedAt, double limitSeconds) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(
                    Math.round((limitSeconds + settings.graceSeconds()) * 1000));
            int probes = 0;
            int probesOk = 0;
            double probeMaxMs = 0;
            long fdsPeak = 0;
            long rssPeak = 0;
            while (closedAt.size() < sockets.size() && System.nanoTime() < deadline) {
                long started = System.nanoTime();
                probes++;
                if (probe() == 200) {
                    probesOk++;
                }
                probeMaxMs = Math.max(probeMaxMs, (System.nanoTime() - started) / 1e6);
                fdsPeak = Math.max(fdsPeak, openFiles(gateway.pid()));
                rssPeak = Math.max(rssPeak, rssKb(gateway.pid()));
                long rest = 1_000_000_000L - (System.nanoTime() - started);
                if (rest > 0) {
                    sleep(rest);
                }
            }
            double[] closeSeconds = sockets.stream().filter(closedAt::containsKey).filter(from::containsKey)
                    .mapToDouble(s -> (closedAt.get(s) - from.get(s)) / 1e9).toArray();
            int closed = closedAt.size();
            sockets.stream().filter(s -> !closedAt.containsKey(s)).forEach(NetSocket::close);
            return new PhaseResult(name, wanted, sockets.size(), closed, limitSeconds, closeSeconds, probesOk, probes,
                    probeMaxMs, fdsPeak, openFiles(gateway.pid()), rssPeak, rssKb(gateway.pid()));
        }

        private int probe() {
            try {
                return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port()
                        + "/v1/chat/completions")).timeout(Duration.ofSeconds(10))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + LoopbackCluster.MODEL
                                + "\",\"messages\":[{\"role\":\"user\",\"content\":\"probe\"}],\"max_tokens\":4}"))
                        .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            } catch (IOException e) {
                return -1;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return -1;
            }
        }
    }

    /** Open file descriptors of a process (Linux /proc), or -1 where that cannot be read. */
    static long openFiles(long pid) {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.count();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Resident memory of a process in KiB (Linux /proc), or -1. */
    static long rssKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or the process is gone
        }
        return -1;
    }

    private static void sleep(long nanos) {
        try {
            TimeUnit.NANOSECONDS.sleep(nanos);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
