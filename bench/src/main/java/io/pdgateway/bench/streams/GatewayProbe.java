package io.pdgateway.bench.streams;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What the gateway process holds, read from outside it: heap after a full collection (jcmd GC.run, then
 * GC.heap_info), direct buffers and per-pod series from its /metrics, resident memory, threads and open files from
 * /proc. Linux with the JDK's jcmd on the PATH.
 */
final class GatewayProbe {
    /**
     * A generation's line of {@code GC.heap_info}: "total NK, used MK". G1 has one for the whole heap, Parallel and
     * Serial one per generation (young and old), and the metaspace lines say "used" without a total.
     */
    private static final Pattern HEAP_USED = Pattern.compile("total \\d+K, used (\\d+)K");
    /** "   1:     123456     7890123  java.lang.String (java.base@17)": instances, bytes, class. */
    private static final Pattern HISTOGRAM_ROW = Pattern.compile("(?m)^\\s*\\d+:\\s+\\d+\\s+(\\d+)\\s+(\\S+)");
    private static final long JCMD_TIMEOUT_SECONDS = 60;

    /** One reading of the gateway process. */
    record Reading(long heapAfterGcBytes, long directBytes, long rssBytes, long openFiles, long threads) {
        String describe() {
            return String.format(Locale.ROOT, "heap after GC %.1f MB, direct buffers %.1f MB, RSS %.1f MB, open files %d,"
                    + " threads %d", heapAfterGcBytes / 1e6, directBytes / 1e6, rssBytes / 1e6, openFiles, threads);
        }
    }

    private final long pid;
    private final int port;
    /**
     * HTTP/1.1, as Prometheus scrapes. With the JDK's default (HTTP/2) the client offers an h2c upgrade, which the
     * streams benchmark's gateway accepts, and the JDK's client then loses a response over 16 KB that follows the 101
     * at once (now and then: a page cut short, EOF or a frame error), whatever server sends it.
     */
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    GatewayProbe(long pid, int port) {
        this.pid = pid;
        this.port = port;
    }

    Reading read() throws IOException, InterruptedException {
        jcmd("GC.run");
        long heap = heapUsed(jcmd("GC.heap_info"));
        String metrics = metrics();
        long direct = (long) sum(metrics, "jvm_buffer_memory_used_bytes", "id=\"direct\"");
        String status = Files.readString(Path.of("/proc", Long.toString(pid), "status"));
        long rss = statusField(status, "VmRSS") * 1024;
        long threads = statusField(status, "Threads");
        long files;
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            files = fds.count();
        }
        return new Reading(heap, direct, rss, files, threads);
    }

    /**
     * Bytes the heap holds by {@code GC.heap_info}'s text: every generation's used space, -1 when it names none (ZGC
     * reports in another form). Reading only the first generation's, a gateway run with Parallel showed its young
     * generation after a full collection (24.5 MB with 10,000 streams open, where G1 read 238 MB).
     */
    static long heapUsed(String heapInfo) {
        Matcher used = HEAP_USED.matcher(heapInfo);
        long kilobytes = -1;
        while (used.find()) {
            kilobytes = Math.max(0, kilobytes) + Long.parseLong(used.group(1));
        }
        return kilobytes < 0 ? -1 : kilobytes * 1024;
    }

    /** Bytes of live objects by class (jcmd GC.class_histogram, which collects first). */
    Map<String, Long> classHistogram() throws IOException, InterruptedException {
        Map<String, Long> bytes = new HashMap<>();
        Matcher row = HISTOGRAM_ROW.matcher(jcmd("GC.class_histogram"));
        while (row.find()) {
            bytes.merge(row.group(2), Long.parseLong(row.group(1)), Long::sum);
        }
        return bytes;
    }

    /** The classes whose live bytes grew most from {@code before} to {@code after}, with their growth per stream. */
    static String grownMost(Map<String, Long> before, Map<String, Long> after, int streams, int top) {
        StringBuilder text = new StringBuilder();
        after.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(top)
                .forEach(e -> text.append(String.format(Locale.ROOT, "    %8.0f B/stream  %s%n",
                        e.getValue() / (double) streams, e.getKey())));
        return text.toString();
    }

    String metrics() throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The sum of every series of {@code name} whose labels contain {@code labelPart} ("" for all). */
    static double sum(String metrics, String name, String labelPart) {
        double total = 0;
        for (String line : metrics.split("\n")) {
            if (line.startsWith(name + "{") && line.contains(labelPart)) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }

    /** The largest value among the series of {@code name} whose labels contain {@code labelPart}. */
    static double max(String metrics, String name, String labelPart) {
        double max = 0;
        for (String line : metrics.split("\n")) {
            if (line.startsWith(name + "{") && line.contains(labelPart)) {
                max = Math.max(max, Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
            }
        }
        return max;
    }

    private static long statusField(String status, String field) {
        Matcher m = Pattern.compile("(?m)^" + field + ":\\s+(\\d+)").matcher(status);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private String jcmd(String command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("jcmd", Long.toString(pid), command).redirectErrorStream(true).start();
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(JCMD_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("jcmd " + command + " did not finish within " + JCMD_TIMEOUT_SECONDS + " s");
        }
        return new String(out, StandardCharsets.UTF_8);
    }
}
