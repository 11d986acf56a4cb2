package io.pdgateway.server.kvevents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pdgateway.core.cache.BlockHasher;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Acceptance (issue 18): the subscriber decodes batches written by an encoder this project did not write, so a shared
 * misunderstanding of the format cannot pass. {@code src/test/node/kv-events-encoder/encoder.mjs} publishes with npm's
 * {@code zeromq} (its native addon ships prebuilt inside the package: nothing is downloaded at install) and
 * {@code @msgpack/msgpack}, laid out as vLLM documents it, and serves replays on its own ROUTER socket. It covers:
 * vLLM's array layout with an unsigned 64-bit hash above 2^63; the map layout with newer fields and an unknown event;
 * a 32-byte hash as parent and child; a batch lost on PUB that only the replay delivers; SGLang's two-element batch
 * with five-field events; and a removal. The test installs the packages itself ({@code npm ci} from the committed
 * lockfile, into target/, from npm's cache when it has them) and skips, saying why, only when Node or the packages
 * cannot be had (no network and an empty cache).
 */
class KvEventsIndependentEncoderTest {
    private static final String POD = "default/node-encoder";
    private static final String MODEL = "llama";
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final long NPM_TIMEOUT_S = 300;
    private static final int[] TOKENS = IntStream.range(0, 80).map(i -> 7 * i + 3).toArray();
    private static final long[] GATEWAY = BlockHasher.chain(BlockHasher.seed(MODEL), TOKENS, TOKENS.length, 16);

    private final RecordingCacheView view = new RecordingCacheView();
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private KvEventSubscriptions subscriptions;
    private Process node;

    @AfterEach
    void tearDown() {
        if (subscriptions != null) {
            subscriptions.close();
        }
        if (node != null) {
            node.destroyForcibly();
        }
    }

    @Test
    void batchesFromAnIndependentEncoder_decodeReplayAndApply() throws Exception {
        Path dir = install();
        node = new ProcessBuilder("node", "encoder.mjs").directory(dir.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException ignored) {
                // the process ended
            }
        });
        reader.setDaemon(true);
        reader.start();
        String endpoints = lines.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(endpoints).as("the encoder's endpoints").isNotNull().contains("endpoint");
        String pub = field(endpoints, "endpoint");
        String replay = field(endpoints, "replay");

        KvEventMetrics metrics = new KvEventMetrics(registry);
        subscriptions = new KvEventSubscriptions(KvEventsSettings.defaults(), view, metrics, System::nanoTime);
        subscriptions.update(List.of(new KvEventsTarget(POD, MODEL, new KvEventsEndpoint(pub, replay, "kv-events"))));
        await().atMost(WAIT).until(() -> count(KvEventMetrics.APPLIED) > 0); // warm-up batches arrive
        OutputStream stdin = node.getOutputStream();
        stdin.write("go\n".getBytes(StandardCharsets.UTF_8));
        stdin.flush();
        assertThat(lines.poll(WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo("done");

        // blocks 0..4 stored (block 3 only through the replay), block 1 removed
        await().atMost(WAIT).until(() -> view.blocks(POD).equals(Set.of(GATEWAY[0], GATEWAY[2], GATEWAY[3],
                GATEWAY[4])));
        assertThat(dropped(KvEventMetrics.UNKNOWN_EVENT)).isEqualTo(1);
        assertThat(dropped(KvEventMetrics.MALFORMED_EVENT) + dropped(KvEventMetrics.MALFORMED_BATCH)
                + dropped(KvEventMetrics.UNRESOLVED_PARENT)).isZero();
        assertThat(registry.find(KvEventMetrics.REPLAY_REQUESTS).tag("reason", KvEventMetrics.REPLAY_GAP).counter())
                .as("the lost batch was asked for").isNotNull();
        assertThat(view.count("cleared")).isZero();
        assertThat(view.isLive(POD)).isTrue();
    }

    /** Copies the encoder to target/ and installs its packages there; skips when they cannot be had. */
    private static Path install() throws IOException, InterruptedException {
        Assumptions.assumeTrue(runs("node", "--version"), "Node.js is not installed: the independent-encoder test "
                + "needs node and npm on the PATH");
        Path source = Path.of("src", "test", "node", "kv-events-encoder");
        Path dir = Path.of("target", "kv-events-encoder");
        Files.createDirectories(dir);
        boolean changed = false;
        for (String file : List.of("package.json", "package-lock.json", "encoder.mjs")) {
            Path target = dir.resolve(file);
            changed |= !Files.exists(target) || Files.mismatch(source.resolve(file), target) != -1;
            Files.copy(source.resolve(file), target, StandardCopyOption.REPLACE_EXISTING);
        }
        if (!changed && Files.isDirectory(dir.resolve("node_modules").resolve("zeromq"))) {
            return dir;
        }
        // --ignore-scripts: zeromq's addon ships prebuilt in the package; its install script would only build from
        // source where no prebuild fits. --prefer-offline: npm's cache first, so a machine without network passes.
        Process npm = new ProcessBuilder("npm", "ci", "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund")
                .directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(npm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        boolean finished = npm.waitFor(NPM_TIMEOUT_S, TimeUnit.SECONDS);
        if (!finished) {
            npm.destroyForcibly();
        }
        if (!finished || npm.exitValue() != 0) {
            String lower = output.toLowerCase(Locale.ROOT);
            boolean offline = !finished || lower.contains("enotfound") || lower.contains("eai_again")
                    || lower.contains("econnrefused") || lower.contains("etimedout") || lower.contains("network")
                    || lower.contains("enotcached");
            Assumptions.assumeFalse(offline, "npm could not fetch zeromq and @msgpack/msgpack (no network and not in "
                    + "npm's cache), so the independent-encoder test is skipped:\n" + output);
            throw new AssertionError("npm ci failed:\n" + output);
        }
        return dir;
    }

    private static boolean runs(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** A string field of the encoder's one-line JSON (no escapes in endpoints). */
    private static String field(String json, String name) {
        int at = json.indexOf("\"" + name + "\":\"") + name.length() + 4;
        return json.substring(at, json.indexOf('"', at));
    }

    private double count(String name) {
        return registry.find(name).counters().stream().mapToDouble(c -> c.count()).sum();
    }

    private double dropped(String reason) {
        return registry.find(KvEventMetrics.DROPPED).tag("reason", reason).counters().stream()
                .mapToDouble(c -> c.count()).sum();
    }
}
