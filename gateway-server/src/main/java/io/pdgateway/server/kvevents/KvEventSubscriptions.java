package io.pdgateway.server.kvevents;

import io.pdgateway.core.cache.PodCacheEvents;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * Follows the KV-cache event streams of the current pod set: {@link #update} with the pods that publish events starts
 * a subscription for each new pod, restarts one whose endpoint or model changed, and stops those that left (their view
 * is reported not live). Events are re-keyed and delivered to the {@link PodCacheEvents} given at construction.
 *
 * <p>Threads: every socket of every pod lives on one poller thread (JeroMQ sockets are neither thread-safe nor
 * non-blocking), plus JeroMQ's own I/O thread, however many pods there are; nothing here runs on a Vert.x event loop.
 * {@link #update} and {@link #close} may be called from any thread: they hand the change to the poller thread.
 * Decoding and applying happen on the poller thread, so the receiver must be thread-safe (its contract says so).
 */
public final class KvEventSubscriptions implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KvEventSubscriptions.class);
    /** The poller wakes at least this often to run timers (probes, staleness, replay timeouts) and take changes. */
    static final int TICK_MS = 50;
    /** JeroMQ's I/O threads: one moves a few thousand small messages a second with room to spare. */
    private static final int IO_THREADS = 1;
    private static final String THREAD_NAME = "pd-kv-events";

    private final KvEventsSettings settings;
    private final PodCacheEvents view;
    private final KvEventMetrics metrics;
    private final LongSupplier nanoClock;
    private final LinkedBlockingQueue<Map<String, KvEventsTarget>> changes = new LinkedBlockingQueue<>();
    private final AtomicInteger subscribed = new AtomicInteger();
    private final AtomicInteger stale = new AtomicInteger();
    private final Thread thread;
    private volatile boolean running = true;
    private Map<String, KvEventsTarget> wanted = Map.of();

    public KvEventSubscriptions(KvEventsSettings settings, PodCacheEvents view, KvEventMetrics metrics,
            LongSupplier nanoClock) {
        this.settings = settings;
        this.view = view;
        this.metrics = metrics;
        this.nanoClock = nanoClock;
        metrics.gauges(subscribed::get, stale::get);
        this.thread = new Thread(this::run, THREAD_NAME);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /** The pods that publish events now (any order; a pod id appears at most once). Returns at once. */
    public synchronized void update(Collection<KvEventsTarget> targets) {
        Map<String, KvEventsTarget> next = new LinkedHashMap<>();
        for (KvEventsTarget t : targets) {
            next.put(t.podId(), t);
        }
        if (!next.equals(wanted)) {
            wanted = Map.copyOf(next);
            changes.add(wanted);
        }
    }

    /** Pods followed now (as of the poller's last pass). */
    public int subscribedPods() {
        return subscribed.get();
    }

    /** Followed pods whose stream is not live now. */
    public int stalePods() {
        return stale.get();
    }

    @Override
    public void close() {
        // No interrupt: the poller wakes every tick anyway, and an interrupt reaching ZeroMQ's context
        // teardown aborts it half-way (EINTR) and leaks its sockets.
        running = false;
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        Map<String, PodEventStream> streams = new HashMap<>();
        try (ZContext ctx = new ZContext(IO_THREADS)) {
            Poll poll = null;
            while (running) {
                Map<String, KvEventsTarget> change = streams.isEmpty() ? take() : changes.poll();
                Map<String, KvEventsTarget> latest = change;
                while ((change = changes.poll()) != null) {
                    latest = change;
                }
                if (latest != null) {
                    apply(latest, streams, ctx);
                }
                if (streams.isEmpty()) {
                    poll = close(poll);
                    continue;
                }
                if (poll == null || streams.values().stream().anyMatch(s -> s.socketsChanged)) {
                    close(poll);
                    poll = new Poll(ctx, streams.values());
                }
                poll.poller.poll(TICK_MS);
                long now = nanoClock.getAsLong();
                for (int i = 0; i < poll.streams.size(); i++) {
                    PodEventStream stream = poll.streams.get(i);
                    if (poll.poller.pollin(poll.subIndex[i])) {
                        read(stream.sub, frames -> stream.onPublished(frames, now));
                    }
                    if (poll.replayIndex[i] >= 0 && poll.poller.pollin(poll.replayIndex[i])) {
                        read(stream.replay, frames -> stream.onReplayed(frames, now));
                    }
                }
                int notLive = 0;
                for (PodEventStream stream : streams.values()) {
                    stream.tick(now);
                    notLive += stream.live() ? 0 : 1;
                }
                stale.set(notLive);
            }
            close(poll);
        } catch (RuntimeException e) {
            LOG.error("KV-event poller stopped", e);
        } finally {
            streams.values().forEach(s -> {
                s.close();
                metrics.forget(s.podId());
            });
            subscribed.set(0);
            stale.set(0);
        }
    }

    private Map<String, KvEventsTarget> take() {
        try {
            return changes.poll(TICK_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            running = false;
            return null;
        }
    }

    private void apply(Map<String, KvEventsTarget> latest, Map<String, PodEventStream> streams, ZContext ctx) {
        streams.values().removeIf(stream -> {
            KvEventsTarget target = latest.get(stream.podId());
            if (Objects.equals(target, stream.target)) {
                return false;
            }
            LOG.info("{}: stopping KV-event subscription to {}", stream.podId(), stream.target.endpoint().endpoint());
            stream.close();
            if (target == null) {
                metrics.forget(stream.podId());
            }
            return true;
        });
        long now = nanoClock.getAsLong();
        for (KvEventsTarget target : latest.values()) {
            if (!streams.containsKey(target.podId())) {
                LOG.info("{}: subscribing to KV events at {} (replay {}, topic '{}')", target.podId(),
                        target.endpoint().endpoint(), target.endpoint().replayEndpoint(), target.endpoint().topic());
                streams.put(target.podId(), new PodEventStream(target, settings, view, metrics, ctx, now));
            }
        }
        subscribed.set(streams.size());
    }

    private static Poll close(Poll poll) {
        if (poll != null) {
            poll.poller.close();
        }
        return null;
    }

    private interface FrameHandler {
        void handle(List<byte[]> frames);
    }

    /** Reads whole messages without blocking, at most {@link PodEventStream#MAX_READS_PER_POLL} per call. */
    private static void read(ZMQ.Socket socket, FrameHandler handler) {
        for (int m = 0; m < PodEventStream.MAX_READS_PER_POLL; m++) {
            byte[] first = socket.recv(ZMQ.DONTWAIT);
            if (first == null) {
                return;
            }
            List<byte[]> frames = new ArrayList<>(3);
            frames.add(first);
            while (socket.hasReceiveMore()) {
                frames.add(socket.recv(0));
            }
            handler.handle(frames);
        }
    }

    /** The poller over every stream's sockets, rebuilt when a stream re-created its sockets. */
    private static final class Poll {
        final ZMQ.Poller poller;
        final List<PodEventStream> streams;
        final int[] subIndex;
        final int[] replayIndex;

        Poll(ZContext ctx, Collection<PodEventStream> all) {
            streams = List.copyOf(all);
            poller = ctx.createPoller(2 * streams.size());
            subIndex = new int[streams.size()];
            replayIndex = new int[streams.size()];
            for (int i = 0; i < streams.size(); i++) {
                PodEventStream s = streams.get(i);
                subIndex[i] = poller.register(s.sub, ZMQ.Poller.POLLIN);
                replayIndex[i] = s.replay == null ? -1 : poller.register(s.replay, ZMQ.Poller.POLLIN);
                s.socketsChanged = false;
            }
        }
    }
}
