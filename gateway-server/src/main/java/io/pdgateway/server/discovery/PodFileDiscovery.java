package io.pdgateway.server.discovery;

import io.pdgateway.core.model.ClusterSnapshot;
import io.vertx.core.Vertx;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pods from a static YAML file, re-read when its content changes (polled, so it works on every filesystem and
 * with editors that replace the file). A file that fails to parse keeps the last good view and is logged once.
 */
public final class PodFileDiscovery implements PodSource {
    private static final Logger LOG = LoggerFactory.getLogger(PodFileDiscovery.class);
    /** design.md §2 promises changes within two seconds; polling at a quarter of that leaves room for a slow read. */
    public static final long POLL_INTERVAL_MS = 500;

    private final Vertx vertx;
    private final Path file;
    private volatile ClusterSnapshot current = ClusterSnapshot.EMPTY;
    private volatile boolean ready;
    private byte[] lastBytes;
    private long timerId = -1;

    public PodFileDiscovery(Vertx vertx, Path file) {
        this.vertx = vertx;
        this.file = file;
    }

    /** Reads the file once (so the first view is there before the server accepts requests), then keeps polling. */
    public void start() {
        poll();
        timerId = vertx.setPeriodic(POLL_INTERVAL_MS, id -> vertx.executeBlocking(() -> {
            poll();
            return null;
        }, false));
    }

    /** Reads the file and swaps in a new view when it changed and parses. Runs on one worker at a time. */
    synchronized void poll() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (Exception e) {
            if (lastBytes != null) {
                LOG.warn("pod file {} unreadable ({}); keeping the last good view of {} pods", file, e.toString(),
                        current.podCount());
                lastBytes = null;
            } else if (!ready) {
                LOG.warn("pod file {} unreadable: {}", file, e.toString());
            }
            return;
        }
        if (lastBytes != null && Arrays.equals(bytes, lastBytes)) {
            return;
        }
        lastBytes = bytes;
        try {
            PodYamlReader.Result result = PodYamlReader.read(bytes);
            result.warnings().forEach(w -> LOG.warn("pod file {}: {}", file, w));
            current = ClusterSnapshot.of(result.pods());
            ready = true;
            LOG.info("pod file {}: {} routable pods in {} models ({} skipped)", file, result.pods().size(),
                    current.models().size(), result.skipped());
        } catch (Exception e) {
            LOG.warn("pod file {} is broken ({}); keeping the last good view of {} pods", file, e.getMessage(),
                    current.podCount());
        }
    }

    @Override
    public ClusterSnapshot current() {
        return current;
    }

    @Override
    public boolean ready() {
        return ready;
    }

    @Override
    public void close() {
        if (timerId >= 0) {
            vertx.cancelTimer(timerId);
        }
    }
}
