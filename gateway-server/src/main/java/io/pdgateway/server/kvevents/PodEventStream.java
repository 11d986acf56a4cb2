package io.pdgateway.server.kvevents;

import io.pdgateway.core.cache.PodCacheEvents;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * One pod's event stream: its SUB socket and replay socket, the sequence it expects next, replay of gaps, liveness and
 * reconnection, and the re-keyed delivery to {@link PodCacheEvents}. Confined to the poller thread of
 * {@link KvEventSubscriptions}: JeroMQ sockets are not thread-safe.
 *
 * <p>Sequence rules (engine-sim/README.md, "KV-cache events on the wire"): the next batch is applied; a batch past it
 * opens a replay from the expected sequence while later live batches wait; a batch before it means the engine
 * restarted (its sequence starts again at 0 and its cache is empty), so the view is cleared. On first contact the
 * stream replays from 0 to learn what the engine's replay buffer still holds. Events lost beyond what the replay
 * returns clear the view and restart it from the next batch, so the view never keeps a block whose removal it missed;
 * the engine-to-gateway block mappings survive that (see {@link #resetView}). Without a replay socket a gap clears the
 * view at once.
 *
 * <p>Liveness: an idle engine publishes nothing, so after {@link KvEventsSettings#probeAfter()} of silence the stream
 * asks the replay socket for anything past its last batch; the end marker that answers proves the stream alive. A pod
 * heard from neither way for {@link KvEventsSettings#staleAfter()} is reported not live, and its sockets are re-created
 * after a wait that doubles from {@link KvEventsSettings#reconnectMin()} to {@link KvEventsSettings#reconnectMax()}
 * (ZeroMQ's own TCP reconnects back off the same way). The view is cleared once the stream is back (until then it is
 * the gateway's model, started from the engine's last report) and rebuilt from the replay buffer: events may have been lost in the silence, and an engine that restarted meanwhile may already
 * have published past the expected sequence, which a sequence check alone would take for a gap.
 */
final class PodEventStream {
    private static final Logger LOG = LoggerFactory.getLogger(PodEventStream.class);
    /** vLLM's and SGLang's replay socket ends a replay with this sequence number (-1, 8 bytes) and an empty payload. */
    static final long END_OF_REPLAY = -1;
    /** Messages read from one socket per poll, so one busy pod cannot starve the others. */
    static final int MAX_READS_PER_POLL = 1_000;
    /** Replay requests queued per replay socket before sends fail: one is ever in flight. */
    private static final int REPLAY_SEND_HWM = 16;
    private static final String GPU = "GPU";
    private static final String FULL_ATTENTION = "full_attention";

    private record Live(long seq, byte[] payload) {}

    final KvEventsTarget target;
    private final KvEventsSettings settings;
    private final PodCacheEvents view;
    private final KvEventMetrics metrics;
    private final ZContext ctx;
    private final byte[] topic;
    private final BlockRekeyer rekeyer;
    private final Set<Integer> otherGroups = new HashSet<>();
    private final ArrayDeque<Live> waiting = new ArrayDeque<>();

    ZMQ.Socket sub;
    ZMQ.Socket replay;
    private long expected = -1;
    private boolean synced;
    private boolean replaying;
    private long replayDeadline;
    private long lastHeard;
    private long lastProbe;
    private boolean reportedLive;
    /** False until the first report, so the pod's live gauge exists (at 0) from the start. */
    private boolean reportedOnce;
    /** Set at a reconnect: the view is cleared when the engine is next heard from, before anything is applied. */
    private boolean resetOnContact;
    private long nextReconnect;
    private long backoff;
    /** Set when the sockets were re-created, so the poller re-registers them. */
    boolean socketsChanged = true;

    PodEventStream(KvEventsTarget target, KvEventsSettings settings, PodCacheEvents view, KvEventMetrics metrics,
            ZContext ctx, long now) {
        this.target = target;
        this.settings = settings;
        this.view = view;
        this.metrics = metrics;
        this.ctx = ctx;
        this.topic = target.endpoint().topic().getBytes(StandardCharsets.UTF_8);
        this.rekeyer = new BlockRekeyer(target.model(), settings.maxBlocksPerPod(),
                gatewayHashes -> view.removed(target.podId(), gatewayHashes));
        this.lastHeard = now;
        this.lastProbe = now;
        this.backoff = settings.reconnectMin().toNanos();
        this.nextReconnect = now + settings.staleAfter().toNanos();
        openSockets();
    }

    boolean live() {
        return reportedLive;
    }

    String podId() {
        return target.podId();
    }

    /** A message on the SUB socket: [topic, seq (8 bytes, big-endian), payload]. */
    void onPublished(List<byte[]> frames, long now) {
        if (frames.size() != 3 || !Arrays.equals(frames.get(0), topic) || frames.get(1).length != Long.BYTES) {
            metrics.dropped(podId(), KvEventMetrics.MALFORMED_BATCH, 1);
            return;
        }
        heard(now);
        long seq = ByteBuffer.wrap(frames.get(1)).getLong();
        if (replaying) {
            if (waiting.size() >= settings.maxBufferedBatches()) {
                LOG.warn("{}: replay too slow, {} live batches waiting; giving it up", podId(), waiting.size());
                endReplay(false, now);
            } else {
                waiting.add(new Live(seq, frames.get(2)));
                return;
            }
        }
        if (expected >= 0 && seq < expected) {
            LOG.info("{}: sequence went back from {} to {}: the engine restarted; clearing its view", podId(),
                    expected, seq);
            rekeyer.clear(); // a new process: vLLM seeds its hashes per process, so the old ones never come back
            resetView();
            expected = -1;
        }
        if (seq == expected || (expected < 0 && seq == 0)) {
            apply(seq, frames.get(2), now);
        } else if (replay != null) {
            waiting.add(new Live(seq, frames.get(2)));
            startReplay(Math.max(expected, 0), expected < 0 ? KvEventMetrics.REPLAY_SYNC : KvEventMetrics.REPLAY_GAP,
                    now);
        } else {
            if (expected >= 0) {
                LOG.info("{}: missed batches {}..{} and no replay socket; clearing its view", podId(), expected,
                        seq - 1);
                resetView();
            }
            apply(seq, frames.get(2), now);
        }
    }

    /** A message on the replay socket: [empty, seq (8 bytes), payload], or the end marker [empty, -1, empty]. */
    void onReplayed(List<byte[]> frames, long now) {
        if (frames.size() != 3 || frames.get(0).length != 0 || frames.get(1).length != Long.BYTES) {
            metrics.dropped(podId(), KvEventMetrics.MALFORMED_BATCH, 1);
            return;
        }
        heard(now);
        long seq = ByteBuffer.wrap(frames.get(1)).getLong();
        if (seq == END_OF_REPLAY) {
            if (replaying) {
                endReplay(true, now);
            }
            return;
        }
        if (!replaying || (expected >= 0 && seq < expected)) {
            return; // a late answer, or a batch already applied
        }
        if (expected >= 0 && seq > expected) {
            LOG.info("{}: the replay buffer no longer holds batches {}..{}; clearing its view", podId(), expected,
                    seq - 1);
            resetView();
        }
        apply(seq, frames.get(2), now);
    }

    /** Timers: replay timeout, probes of a silent stream, liveness, reconnection. */
    void tick(long now) {
        if (replaying && now - replayDeadline > 0) {
            LOG.info("{}: replay unanswered after {}", podId(), settings.replayTimeout());
            recreateReplaySocket();
            endReplay(false, now);
        }
        long silent = now - lastHeard;
        if (!replaying && replay != null && silent >= settings.probeAfter().toNanos()
                && now - lastProbe >= settings.probeAfter().toNanos()) {
            startReplay(Math.max(expected, 0), KvEventMetrics.REPLAY_PROBE, now);
        }
        boolean stale = silent >= settings.staleAfter().toNanos();
        report(synced && !stale);
        if (stale && now - nextReconnect >= 0) {
            LOG.info("{}: nothing heard for {} ms; reconnecting to {}", podId(), silent / 1_000_000,
                    target.endpoint().endpoint());
            closeSockets();
            openSockets();
            replaying = false;
            waiting.clear();
            if (expected >= 0) {
                // Events may have been lost in the silence, and an engine that restarted meanwhile may already have
                // published past our sequence: rebuild the view from what the replay buffer holds, from 0. The reset
                // waits until the engine answers: meanwhile the view is the gateway's model (the pod is not live),
                // which is better started from the engine's last report than from nothing.
                resetOnContact = true;
                expected = -1;
                synced = false;
            }
            nextReconnect = now + backoff;
            backoff = Math.min(2 * backoff, settings.reconnectMax().toNanos());
        }
    }

    void close() {
        closeSockets();
        report(false);
    }

    private void heard(long now) {
        if (resetOnContact) {
            resetOnContact = false;
            resetView();
        }
        lastHeard = now;
        backoff = settings.reconnectMin().toNanos();
        nextReconnect = now + settings.staleAfter().toNanos();
    }

    private void startReplay(long from, String reason, long now) {
        lastProbe = now;
        byte[] seq = ByteBuffer.allocate(Long.BYTES).putLong(from).array();
        boolean sent = replay.send(new byte[0], ZMQ.SNDMORE | ZMQ.DONTWAIT) && replay.send(seq, ZMQ.DONTWAIT);
        metrics.replayRequested(podId(), reason);
        if (!sent) {
            recreateReplaySocket();
            endReplay(false, now);
            return;
        }
        replaying = true;
        replayDeadline = now + settings.replayTimeout().toNanos();
    }

    /** The replay ended (or failed): apply the live batches that waited for it, clearing the view past a loss. */
    private void endReplay(boolean answered, long now) {
        replaying = false;
        if (answered) {
            synced = true;
        }
        while (!waiting.isEmpty()) {
            Live next = waiting.poll();
            if (expected >= 0 && next.seq() < expected) {
                continue;
            }
            if (expected >= 0 && next.seq() > expected) {
                LOG.info("{}: batches {}..{} lost beyond replay; clearing its view", podId(), expected,
                        next.seq() - 1);
                resetView();
            }
            apply(next.seq(), next.payload(), now);
        }
        report(synced && now - lastHeard < settings.staleAfter().toNanos());
    }

    private void apply(long seq, byte[] payload, long now) {
        expected = seq + 1;
        synced = true;
        KvEventBatch batch;
        try {
            batch = KvEventDecoder.decode(payload);
        } catch (MalformedBatchException e) {
            metrics.dropped(podId(), KvEventMetrics.MALFORMED_BATCH, 1);
            LOG.debug("{}: batch {} skipped: {}", podId(), seq, e.getMessage());
            return;
        }
        int received = batch.events().size() + batch.unknownEvents() + batch.malformedEvents();
        metrics.received(podId(), received);
        if (batch.unknownEvents() > 0) {
            metrics.dropped(podId(), KvEventMetrics.UNKNOWN_EVENT, batch.unknownEvents());
        }
        if (batch.malformedEvents() > 0) {
            metrics.dropped(podId(), KvEventMetrics.MALFORMED_EVENT, batch.malformedEvents());
        }
        int applied = 0;
        for (KvEvent event : batch.events()) {
            String dropped = deliver(event);
            if (dropped == null) {
                applied++;
            } else {
                metrics.dropped(podId(), dropped, 1);
            }
        }
        if (applied > 0) {
            metrics.applied(podId(), applied);
        }
        report(now - lastHeard < settings.staleAfter().toNanos());
    }

    /** Applies one event to the view; the reason it was dropped, or null. */
    private String deliver(KvEvent event) {
        String pod = podId();
        if (event instanceof BlockStored stored) {
            if (!onGpu(stored.medium())) {
                return KvEventMetrics.OTHER_MEDIUM;
            }
            if (stored.cacheSpecKind() != null && !FULL_ATTENTION.equals(stored.cacheSpecKind())) {
                if (stored.groupIdx() != null) {
                    otherGroups.add(stored.groupIdx());
                }
                return KvEventMetrics.OTHER_GROUP;
            }
            BlockRekeyer.Stored out = rekeyer.store(stored);
            if (out.failure() != null) {
                return out.failure() == BlockRekeyer.Failure.UNRESOLVED_PARENT ? KvEventMetrics.UNRESOLVED_PARENT
                        : KvEventMetrics.BAD_SHAPE;
            }
            if (out.gatewayHashes().length > 0) {
                view.stored(pod, out.gatewayHashes());
            }
            return null;
        }
        if (event instanceof BlockRemoved removed) {
            if (!onGpu(removed.medium())) {
                return KvEventMetrics.OTHER_MEDIUM;
            }
            if (removed.groupIdx() != null && otherGroups.contains(removed.groupIdx())) {
                return KvEventMetrics.OTHER_GROUP;
            }
            long[] gatewayHashes = rekeyer.remove(removed.blockHashes());
            if (gatewayHashes.length > 0) {
                view.removed(pod, gatewayHashes);
            }
            return null;
        }
        view.cleared(pod); // the engine-to-gateway mappings stay true: they are facts about content
        return null;
    }

    /** GPU blocks only: an engine that offloads reports CPU or disk copies too, which a request cannot hit as fast. */
    private static boolean onGpu(String medium) {
        return medium == null || GPU.equals(medium.toUpperCase(Locale.ROOT));
    }

    /**
     * Clears the pod's view but keeps the engine-to-gateway block mappings: a mapping is a fact about content (an engine
     * hash covers its whole prefix), true whether or not the engine still holds the block, so blocks stored later as
     * continuations of known prefixes still resolve.
     */
    private void resetView() {
        view.cleared(podId());
        metrics.viewReset(podId());
    }

    private void report(boolean live) {
        if (live != reportedLive || !reportedOnce) {
            reportedOnce = true;
            reportedLive = live;
            view.live(podId(), live);
            metrics.live(podId(), live);
        }
    }

    private void openSockets() {
        sub = ctx.createSocket(SocketType.SUB);
        configure(sub);
        sub.connect(target.endpoint().endpoint());
        sub.subscribe(topic);
        if (target.endpoint().replayEndpoint() != null) {
            openReplaySocket();
        }
        socketsChanged = true;
    }

    /** A fresh DEALER drops queued requests and any late answer to an abandoned one. */
    private void recreateReplaySocket() {
        if (replay != null) {
            ctx.destroySocket(replay);
            openReplaySocket();
            socketsChanged = true;
        }
    }

    private void openReplaySocket() {
        replay = ctx.createSocket(SocketType.DEALER);
        configure(replay);
        replay.setSndHWM(REPLAY_SEND_HWM);
        replay.connect(target.endpoint().replayEndpoint());
    }

    private void configure(ZMQ.Socket socket) {
        socket.setLinger(0);
        socket.setReconnectIVL((int) settings.reconnectMin().toMillis());
        socket.setReconnectIVLMax((int) settings.reconnectMax().toMillis());
    }

    private void closeSockets() {
        if (sub != null) {
            ctx.destroySocket(sub);
            sub = null;
        }
        if (replay != null) {
            ctx.destroySocket(replay);
            replay = null;
        }
        socketsChanged = true;
    }
}
