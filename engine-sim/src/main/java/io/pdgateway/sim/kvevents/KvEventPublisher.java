package io.pdgateway.sim.kvevents;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * A simulated engine's KV-event publisher, on the wire exactly as vLLM's and SGLang's ZeroMQ publishers
 * (engine-sim/README.md, "KV-cache events on the wire"): a PUB socket sending [topic, 8-byte big-endian sequence
 * number from 0, msgpack batch], and an optional ROUTER socket that answers a replay request (an 8-byte start sequence)
 * with every buffered batch from there, each as [sequence, batch], then the end marker [-1, empty].
 *
 * <p>The batch is {@code [ts, [event, ...], data_parallel_rank]}; events are tagged arrays or tagged maps depending on
 * the {@link Layout}. Hashes go out as vLLM's integer mode sends them: unsigned 64-bit.
 *
 * <p>One thread owns both sockets; callers only queue. {@link #dropNext} is fault injection for tests: batches that
 * still enter the replay buffer but never reach the PUB socket, as if the network lost them.
 */
public final class KvEventPublisher implements KvCacheEventSink, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KvEventPublisher.class);
    /** The replay socket's end-of-replay sequence number: -1 as 8 bytes. */
    static final byte[] END_OF_REPLAY = ByteBuffer.allocate(Long.BYTES).putLong(-1).array();
    /** The publisher thread checks the replay socket at least this often. */
    private static final int POLL_MS = 5;

    /** How events are encoded inside the batch. */
    public enum Layout {
        /** Tagged arrays, {@code ["BlockStored", ...fields]}: vLLM up to 0.23 and SGLang before its map switch. */
        ARRAY,
        /** Tagged maps, {@code {"type": "BlockStored", ...}}: vLLM since its switch to named fields (2026). */
        MAP
    }

    private final KvEventsConfig config;
    private final Layout layout;
    private final InstantSource clock;
    private final byte[] topic;
    private final BlockingQueue<byte[]> queue;
    private final Object pendingLock = new Object();
    private MessageBufferPacker pending;
    private int pendingEvents;
    private final Thread thread;
    private final CountDownLatch bound = new CountDownLatch(1);
    private volatile boolean running = true;
    private volatile int dropNext;
    private volatile String boundEndpoint;
    private volatile String boundReplayEndpoint;
    private volatile RuntimeException startFailure;

    /** Binds (or connects) the sockets before returning; throws if an address cannot be used. */
    public KvEventPublisher(KvEventsConfig config, Layout layout, InstantSource clock) {
        if (!config.publishes()) {
            throw new IllegalArgumentException("KV events are not enabled with the zmq publisher in " + config);
        }
        this.config = config;
        this.layout = layout;
        this.clock = clock;
        this.topic = config.topic().getBytes(StandardCharsets.UTF_8);
        this.queue = new ArrayBlockingQueue<>(config.maxQueueSize());
        this.thread = new Thread(this::run, "sim-kv-events");
        this.thread.setDaemon(true);
        this.thread.start();
        try {
            if (!bound.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("KV-event publisher did not start");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        if (startFailure != null) {
            throw startFailure;
        }
    }

    /** The PUB address actually bound (a wildcard port resolved), or the connected address. */
    public String endpoint() {
        return boundEndpoint;
    }

    /** The ROUTER address actually bound, or null without a replay socket. */
    public String replayEndpoint() {
        return boundReplayEndpoint;
    }

    /** Fault injection: the next {@code batches} batches enter the replay buffer but are not published. */
    public void dropNext(int batches) {
        dropNext = batches;
    }

    @Override
    public void stored(long[] blockHashes, Long parentBlockHash, int[] tokenIds, int blockSize) {
        synchronized (pendingLock) {
            try {
                MessageBufferPacker p = pending();
                if (layout == Layout.ARRAY) {
                    p.packArrayHeader(8).packString("BlockStored");
                } else {
                    p.packMapHeader(8).packString("type").packString("BlockStored").packString("block_hashes");
                }
                hashes(p, blockHashes);
                key(p, "parent_block_hash");
                if (parentBlockHash == null) {
                    p.packNil();
                } else {
                    unsigned(p, parentBlockHash);
                }
                key(p, "token_ids");
                p.packArrayHeader(tokenIds.length);
                for (int t : tokenIds) {
                    p.packInt(t);
                }
                key(p, "block_size");
                p.packInt(blockSize);
                key(p, "lora_id");
                p.packNil();
                key(p, "medium");
                p.packString("GPU");
                key(p, "lora_name");
                p.packNil();
                pendingEvents++;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Override
    public void removed(long[] blockHashes) {
        synchronized (pendingLock) {
            try {
                MessageBufferPacker p = pending();
                if (layout == Layout.ARRAY) {
                    p.packArrayHeader(3).packString("BlockRemoved");
                } else {
                    p.packMapHeader(3).packString("type").packString("BlockRemoved").packString("block_hashes");
                }
                hashes(p, blockHashes);
                key(p, "medium");
                p.packString("GPU");
                pendingEvents++;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Override
    public void cleared() {
        synchronized (pendingLock) {
            try {
                MessageBufferPacker p = pending();
                if (layout == Layout.ARRAY) {
                    p.packArrayHeader(1).packString("AllBlocksCleared");
                } else {
                    p.packMapHeader(1).packString("type").packString("AllBlocksCleared");
                }
                pendingEvents++;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Override
    public void flush() {
        byte[] events;
        int count;
        synchronized (pendingLock) {
            if (pendingEvents == 0) {
                return;
            }
            events = pending.toByteArray();
            count = pendingEvents;
            pending = null;
            pendingEvents = 0;
        }
        try (MessageBufferPacker batch = MessagePack.newDefaultBufferPacker()) {
            batch.packArrayHeader(3).packDouble(clock.millis() / 1000.0).packArrayHeader(count);
            batch.writePayload(events);
            batch.packInt(0); // data_parallel_rank: a simulated pod is one rank
            queue.put(batch.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private MessageBufferPacker pending() {
        if (pending == null) {
            pending = MessagePack.newDefaultBufferPacker();
        }
        return pending;
    }

    private void key(MessageBufferPacker p, String name) throws IOException {
        if (layout == Layout.MAP) {
            p.packString(name);
        }
    }

    private static void hashes(MessageBufferPacker p, long[] hashes) throws IOException {
        p.packArrayHeader(hashes.length);
        for (long h : hashes) {
            unsigned(p, h);
        }
    }

    /** vLLM's integer hashes are Python ints below 2^64: the high half goes out as msgpack uint64. */
    private static void unsigned(MessageBufferPacker p, long h) throws IOException {
        if (h >= 0) {
            p.packLong(h);
        } else {
            p.packBigInteger(new BigInteger(Long.toUnsignedString(h)));
        }
    }

    private void run() {
        try (ZContext ctx = new ZContext(1)) {
            ZMQ.Socket pub;
            ZMQ.Socket router = null;
            try {
                pub = ctx.createSocket(SocketType.PUB);
                pub.setLinger(0);
                pub.setSndHWM(config.hwm());
                String endpoint = config.endpoint();
                if (endpoint.contains("*") || endpoint.contains("::") || endpoint.startsWith("ipc://")
                        || endpoint.startsWith("inproc://")) {
                    pub.bind(endpoint);
                    boundEndpoint = pub.getLastEndpoint();
                } else {
                    pub.connect(endpoint);
                    boundEndpoint = endpoint;
                }
                if (config.replayEndpoint() != null) {
                    router = ctx.createSocket(SocketType.ROUTER);
                    router.setLinger(0);
                    router.bind(config.replayEndpoint());
                    boundReplayEndpoint = router.getLastEndpoint();
                }
            } catch (RuntimeException e) {
                startFailure = new IllegalArgumentException("cannot open KV-event sockets for " + config + ": " + e, e);
                return;
            } finally {
                bound.countDown();
            }
            serve(ctx, pub, router);
        } catch (RuntimeException e) {
            LOG.error("KV-event publisher stopped", e);
        }
    }

    private void serve(ZContext ctx, ZMQ.Socket pub, ZMQ.Socket router) {
        ArrayDeque<byte[]> buffer = new ArrayDeque<>();
        ArrayDeque<Long> bufferSeqs = new ArrayDeque<>();
        long seq = 0;
        ZMQ.Poller poller = router == null ? null : ctx.createPoller(1);
        if (poller != null) {
            poller.register(router, ZMQ.Poller.POLLIN);
        }
        while (running) {
            if (poller != null && poller.poll(POLL_MS) > 0 && poller.pollin(0)) {
                replay(router, buffer, bufferSeqs);
            }
            byte[] payload;
            try {
                payload = poller == null ? queue.poll(POLL_MS, TimeUnit.MILLISECONDS) : queue.poll();
            } catch (InterruptedException e) {
                return;
            }
            if (payload == null) {
                continue;
            }
            byte[] seqBytes = ByteBuffer.allocate(Long.BYTES).putLong(seq).array();
            if (dropNext > 0) {
                dropNext--;
            } else {
                pub.send(topic, ZMQ.SNDMORE);
                pub.send(seqBytes, ZMQ.SNDMORE);
                pub.send(payload, 0);
            }
            buffer.add(payload);
            bufferSeqs.add(seq);
            if (buffer.size() > config.bufferSteps()) {
                buffer.poll();
                bufferSeqs.poll();
            }
            seq++;
        }
    }

    /** Answers one replay request: [identity, empty, start] in, [identity, empty, seq, batch]... then the end marker. */
    private static void replay(ZMQ.Socket router, ArrayDeque<byte[]> buffer, ArrayDeque<Long> seqs) {
        byte[] identity = router.recv(ZMQ.DONTWAIT);
        if (identity == null) {
            return;
        }
        List<byte[]> rest = new ArrayList<>();
        while (router.hasReceiveMore()) {
            rest.add(router.recv(0));
        }
        if (rest.size() != 2 || rest.get(1).length != Long.BYTES) {
            LOG.warn("invalid replay request of {} frames", rest.size() + 1);
            return;
        }
        long start = ByteBuffer.wrap(rest.get(1)).getLong();
        var payloads = buffer.iterator();
        for (long s : seqs) {
            byte[] payload = payloads.next();
            if (s >= start) {
                router.send(identity, ZMQ.SNDMORE);
                router.send(new byte[0], ZMQ.SNDMORE);
                router.send(ByteBuffer.allocate(Long.BYTES).putLong(s).array(), ZMQ.SNDMORE);
                router.send(payload, 0);
            }
        }
        router.send(identity, ZMQ.SNDMORE);
        router.send(new byte[0], ZMQ.SNDMORE);
        router.send(END_OF_REPLAY, ZMQ.SNDMORE);
        router.send(new byte[0], 0);
    }
}
