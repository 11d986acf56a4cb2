package io.pdgateway.sim;

import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The pod's engine scheduler, one per pod, run by Vert.x timers on the pod's event loop (no sleeping, no thread
 * per request). It works in steps as vLLM V1 does:
 * <ul>
 *   <li>admission, first come first served: a waiting request starts running while fewer than
 *       {@code maxNumSeqs} run and its KV (prompt + completion) fits; otherwise it and everything behind it wait;</li>
 *   <li>each step carries one token for every decoding sequence plus prefill chunks of running requests, up to
 *       {@code tokenBudget} tokens; the step lasts d + e·B + f·ΣC plus b·n + 2c·n·(p + n/2) per chunk
 *       (engine-timing.md §7.1 "Mixed step");</li>
 *   <li>at the end of a step every decoding sequence gets a token, and a sequence whose prefill completed gets
 *       its first token;</li>
 *   <li>a request that needs a prefill first spends a − d outside the GPU step (API server and scheduling,
 *       §7.1), so a request alone sees exactly a + b·t + c·t².</li>
 * </ul>
 * Steps are laid end to end on a wall-clock timeline scaled by the time scale. Timers tick in whole
 * milliseconds, so when steps are shorter than that several run in one tick, each still emitting its tokens.
 */
public final class EngineLoop {
    /** The shortest wall time a protocol timeout is given, whatever the time scale: see {@link #protocolTimeoutWallMillis}. */
    public static final long PROTOCOL_TIMEOUT_FLOOR_MILLIS = 5_000;


    /** Steps run back to back in one tick before the loop yields the event loop to other handlers. */
    private static final int MAX_STEPS_PER_TICK = 256;
    private static final long NO_TIMER = -1;

    private record Chunk(Sequence sequence, int tokens) {
    }

    private record Step(List<Sequence> decoders, List<Chunk> chunks, long endNanos) {
    }

    private final Vertx vertx;
    private final Context context;
    private final TimingProfile timing;
    private final double timeScale;
    private final KvPool pool;
    private final PrefixCache prefixCache;
    private final EngineStats stats;
    private final ArrayDeque<Sequence> waiting = new ArrayDeque<>();
    private final List<Sequence> running = new ArrayList<>();

    private Step current;
    private long cursorNanos;
    private long timerId = NO_TIMER;
    private boolean kickPending;
    private boolean stopped;

    public EngineLoop(Vertx vertx, Context context, SimConfig config, KvPool pool, PrefixCache prefixCache,
            EngineStats stats) {
        this.vertx = vertx;
        this.context = context;
        this.timing = config.timing();
        this.timeScale = config.timeScale();
        this.pool = pool;
        this.prefixCache = prefixCache;
        this.stats = stats;
    }

    /** Hands a request to the engine; its listener hears every token from now on. */
    public void submit(Sequence sequence) {
        if (!sequence.needsPrefill) {
            enqueue(sequence);
            return;
        }
        long overheadMillis = Math.round(wallMillis(timing.prefillFixedMillis() - timing.decodeStepFloorMillis()));
        if (overheadMillis < 1) {
            enqueue(sequence);
        } else {
            sequence.pendingTimer = vertx.setTimer(overheadMillis, id -> {
                sequence.pendingTimer = NO_TIMER;
                enqueue(sequence);
            });
        }
    }

    /**
     * Drops a request at once (client gone, or a fault): it leaves the batch, its KV is freed and it counts as
     * aborted. Does nothing for a request that already finished.
     */
    public void cancel(Sequence sequence) {
        if (sequence.cancelled || sequence.finished) {
            return;
        }
        sequence.cancelled = true;
        if (sequence.pendingTimer != NO_TIMER) {
            vertx.cancelTimer(sequence.pendingTimer);
            sequence.pendingTimer = NO_TIMER;
        }
        if (!waiting.remove(sequence) && running.remove(sequence)) {
            pool.release(sequence.reservedBlocks);
            sequence.reservedBlocks = 0;
        }
        stats.finished(EngineStats.FINISHED_ABORT);
    }

    /** KV was freed outside the loop (a prefill's held KV left): waiting requests may fit now. */
    public void capacityFreed() {
        if (!waiting.isEmpty()) {
            wake();
        }
    }

    void stop() {
        stopped = true;
        if (timerId != NO_TIMER) {
            vertx.cancelTimer(timerId);
            timerId = NO_TIMER;
        }
    }

    public int running() {
        return running.size();
    }

    public int waiting() {
        return waiting.size();
    }

    /** Modelled engine milliseconds as wall milliseconds. */
    public double wallMillis(double engineMillis) {
        return engineMillis * timeScale;
    }

    /**
     * An engine's protocol timeout (how long KV waits for its decode, a decode for its KV) as wall milliseconds: scaled
     * like every duration, but never under {@link #PROTOCOL_TIMEOUT_FLOOR_MILLIS}. The time scale speeds up the
     * modelled GPU, not the network, the gateway or the other pod such a timeout waits on: at 1e-4 vLLM's 480 s abort
     * timeout would be 48 ms, and a decode leg that came through a busy gateway would find its KV already freed. Five
     * seconds outlast any loopback hop short of overload, even on a 2-core machine running the whole test suite (at
     * the tests' 0.005, 480 s was 2.4 s, and one event loop blocked for 2.4 s under load failed a PD test).
     */
    public long protocolTimeoutWallMillis(double engineMillis) {
        return Math.max(PROTOCOL_TIMEOUT_FLOOR_MILLIS, Math.round(wallMillis(engineMillis)));
    }

    /** Wall nanoseconds as modelled engine seconds, for the metrics. */
    public double engineSeconds(long wallNanos) {
        return Math.max(0L, wallNanos) / 1e9 / timeScale;
    }

    private void enqueue(Sequence sequence) {
        if (sequence.cancelled || stopped) {
            return;
        }
        sequence.queuedNanos = System.nanoTime();
        waiting.addLast(sequence);
        wake();
    }

    private void wake() {
        if (current != null || timerId != NO_TIMER || kickPending || stopped) {
            return;
        }
        kickPending = true;
        // Deferred so that tokens never reach a listener from inside its own submit() call.
        context.runOnContext(v -> {
            kickPending = false;
            if (current == null && timerId == NO_TIMER) {
                cursorNanos = System.nanoTime();
                advance();
            }
        });
    }

    private void advance() {
        for (int i = 0; i < MAX_STEPS_PER_TICK && !stopped; i++) {
            if (current == null) {
                current = plan(cursorNanos);
                if (current == null) {
                    return; // idle until the next submission
                }
            }
            long now = System.nanoTime();
            if (current.endNanos() > now) {
                long delayMillis = Math.max(1, (current.endNanos() - now + 999_999) / 1_000_000);
                timerId = vertx.setTimer(delayMillis, this::onTimer);
                return;
            }
            Step done = current;
            current = null;
            cursorNanos = done.endNanos();
            complete(done);
        }
        if (!stopped) {
            timerId = vertx.setTimer(1, this::onTimer);
        }
    }

    private void onTimer(long id) {
        timerId = NO_TIMER;
        advance();
    }

    private Step plan(long startNanos) {
        admit(startNanos);
        if (running.isEmpty() && !waiting.isEmpty() && waiting.peekFirst().queuedNanos > startNanos) {
            // Nothing ran in between: the next step starts when the first waiting request arrived.
            startNanos = waiting.peekFirst().queuedNanos;
            admit(startNanos);
        }
        if (running.isEmpty()) {
            return null;
        }
        List<Sequence> decoders = new ArrayList<>();
        long context = 0;
        for (Sequence s : running) {
            if (s.prefillDone()) {
                decoders.add(s);
                context += s.context();
            }
        }
        double millis = timing.decodeStepMillis(decoders.size(), context);
        int budget = timing.tokenBudget() - decoders.size();
        List<Chunk> chunks = new ArrayList<>();
        for (Sequence s : running) {
            if (budget <= 0) {
                break;
            }
            if (!s.prefillDone()) {
                int tokens = Math.min(s.remainingPrefill(), budget);
                millis += timing.prefillChunkMillis(tokens, s.cachedTokens + s.prefilledTokens);
                chunks.add(new Chunk(s, tokens));
                budget -= tokens;
            }
        }
        if (decoders.isEmpty() && chunks.isEmpty()) {
            return null;
        }
        return new Step(decoders, chunks, startNanos + Math.round(wallMillis(millis) * 1e6));
    }

    private void admit(long nowNanos) {
        while (!waiting.isEmpty() && running.size() < timing.maxNumSeqs()) {
            Sequence next = waiting.peekFirst();
            if (next.queuedNanos > nowNanos) {
                return; // arrived after this step began: it joins the next one
            }
            int blocks = pool.blocksFor(next.promptTokens() + next.maxTokens);
            if (!pool.tryReserve(blocks)) {
                return;
            }
            waiting.pollFirst();
            next.reservedBlocks = blocks;
            stats.queueTime.observe(engineSeconds(nowNanos - next.queuedNanos));
            next.admittedNanos = nowNanos;
            if (next.needsPrefill) {
                // vLLM always computes at least the last prompt token, even on a full hit.
                next.cachedTokens = Math.min(prefixCache.cachedTokens(next.prompt), next.promptTokens() - 1);
                stats.prefixCacheQueries += next.promptTokens();
                stats.prefixCacheHits += next.cachedTokens;
            }
            running.add(next);
        }
    }

    private void complete(Step step) {
        long at = step.endNanos();
        for (Chunk chunk : step.chunks()) {
            Sequence s = chunk.sequence();
            if (s.cancelled) {
                continue;
            }
            s.prefilledTokens += chunk.tokens();
            if (s.prefillDone()) {
                prefixCache.insert(s.prompt);
                stats.prefillTime.observe(engineSeconds(at - s.admittedNanos));
                emit(s, at);
            }
        }
        prefixCache.publish(); // one KV-event batch per step, as the engines publish
        for (Sequence s : step.decoders()) {
            if (!s.cancelled && !s.finished) {
                emit(s, at);
            }
        }
    }

    private void emit(Sequence s, long at) {
        int index = s.generated++;
        stats.generationTokens++;
        if (index == 0) {
            s.firstTokenNanos = at;
            stats.promptTokens += s.promptTokens();
            stats.timeToFirstToken.observe(engineSeconds(at - s.arrivalNanos));
        }
        String finishReason = null;
        if (s.generated >= s.maxTokens) {
            finishReason = EngineStats.FINISHED_LENGTH;
            s.finished = true;
            running.remove(s);
            pool.release(s.reservedBlocks);
            s.reservedBlocks = 0;
            stats.finished(finishReason);
            stats.e2eLatency.observe(engineSeconds(at - s.arrivalNanos));
            stats.decodeTime.observe(engineSeconds(at - s.firstTokenNanos));
        }
        s.listener.onToken(index, finishReason);
    }
}
