package io.pdgateway.routingsim.engine;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.routingsim.event.Event;
import io.pdgateway.routingsim.event.EventQueue;
import io.pdgateway.sim.TimingProfile;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One pod's engine as a queueing model on the virtual clock, scheduling exactly as engine-sim's EngineLoop does and
 * timed by the same {@link TimingProfile}:
 * <ul>
 *   <li>a request that needs a prefill first spends a − d outside the GPU step (API server and scheduling,
 *       engine-timing.md §7.1), then waits;</li>
 *   <li>admission, first come first served, at the start of a step: while fewer than {@code maxNumSeqs} run and the
 *       request's KV (prompt + completion, reserved up front, so no preemption) fits; its cached prefix is looked up
 *       then (vLLM always computes at least the last prompt token);</li>
 *   <li>each step carries one token for every decoding sequence plus prefill chunks of running requests up to
 *       {@code tokenBudget} tokens, and lasts d + e·B + f·ΣC + Σ(b·n + 2c·n·(p + n/2)) (§7.1 "Mixed step");</li>
 *   <li>at the end of a step every decoding sequence gets a token and a sequence whose prefill completed gets its
 *       first token and enters the prefix cache; steps follow each other back to back while work remains.</li>
 * </ul>
 * A prefill pod keeps a finished prompt's KV until a decode pod has fetched it over the pod's one transfer link
 * (s + bytes / bandwidth, transfers queued). Metrics are scraped as the gateway would see them ({@link MetricsScrape}).
 */
public final class SimEngine implements Event {
    /** The gateway's scraper derives vLLM's generation throughput over about a second of samples (CounterRate). */
    static final long THROUGHPUT_WINDOW_NANOS = 1_000_000_000L;

    private final Pod pod;
    private final EngineRole role;
    private final TimingProfile timing;
    private final EventQueue queue;
    private final PrefixBlockCache cache;
    private final int capacityBlocks;
    private final long overheadNanos;
    private final ArrayDeque<EngineRequest> waiting = new ArrayDeque<>();
    private final List<EngineRequest> running = new ArrayList<>();
    private final EngineCounters counters = new EngineCounters();
    private final CounterHistory generatedHistory;
    private final MetricsScrape scrape;
    private final Event kick = this::onKick;
    /** The engine's KV-cache event publisher, or null when it publishes none. */
    private KvEventFeed events;

    private int usedBlocks;
    private int heldBlocks;
    private int inOverhead;
    private int kvFetches;
    private int fetchBlocks;
    private long overheadTokens;
    private long linkFreeAt;
    private boolean stepping;
    private boolean kickScheduled;
    private long stepStart;
    private long stepEnd;
    private EngineRequest[] decoders = new EngineRequest[16];
    private int decoderCount;
    private EngineRequest[] chunks = new EngineRequest[16];
    private int[] chunkTokens = new int[16];
    private int chunkCount;

    public SimEngine(Pod pod, EngineRole role, TimingProfile timing, EventQueue queue, long scrapeIntervalNanos,
            long scrapePhaseNanos) {
        this.pod = pod;
        this.role = role;
        this.timing = timing;
        this.queue = queue;
        this.capacityBlocks = Math.max(1, timing.kvCapacityTokens() / timing.blockSizeTokens());
        this.cache = new PrefixBlockCache(capacityBlocks);
        this.overheadNanos = nanos(timing.prefillFixedMillis() - timing.decodeStepFloorMillis());
        this.scrape = new MetricsScrape(this, scrapeIntervalNanos, scrapePhaseNanos);
        long window = Math.max(1, THROUGHPUT_WINDOW_NANOS / scrapeIntervalNanos) * scrapeIntervalNanos;
        this.generatedHistory = new CounterHistory(window + scrapeIntervalNanos);
    }

    /** Publishes this engine's prefix-cache changes from now on, one batch per engine step. */
    public void publishKvEvents(KvEventFeed feed) {
        this.events = feed;
        cache.publishTo(feed);
    }

    public Pod pod() {
        return pod;
    }

    public EngineRole role() {
        return role;
    }

    public TimingProfile timing() {
        return timing;
    }

    public EngineCounters counters() {
        return counters;
    }

    /** Hands a request to the engine; a request that could never fit is refused at once. */
    public void submit(EngineRequest request) {
        long now = queue.now();
        request.submittedAt = now;
        int blocks = blocksFor(request.promptTokens + request.maxTokens);
        if (blocks > capacityBlocks || request.promptTokens + request.maxTokens > timing.maxModelLen()) {
            request.listener.rejected(this, request, "prompt + completion of " + (request.promptTokens
                    + request.maxTokens) + " tokens exceeds the pod's KV capacity or max_model_len", now);
            return;
        }
        if (request.needsPrefill && overheadNanos > 0) {
            inOverhead++;
            overheadTokens += request.promptTokens;
            queue.after(overheadNanos, at -> {
                inOverhead--;
                overheadTokens -= request.promptTokens;
                enqueue(request, at);
            });
        } else {
            enqueue(request, now);
        }
    }

    /** Prefill role: a finished prompt's KV stays resident until a decode pod fetches it. */
    public void holdKv(int promptTokens) {
        scrape.sync(queue.now());
        int blocks = blocksFor(promptTokens);
        usedBlocks += blocks;
        heldBlocks += blocks;
    }

    /** Prefill role: books the pod's transfer link for a prompt's KV; returns when the transfer ends. */
    public long bookTransfer(int promptTokens) {
        long start = Math.max(queue.now(), linkFreeAt);
        linkFreeAt = start + nanos(timing.kvTransferMillis(promptTokens));
        return linkFreeAt;
    }

    /** Prefill role: the decode pod has the KV; its blocks are free again. */
    public void releaseHeldKv(int promptTokens) {
        scrape.sync(queue.now());
        int blocks = blocksFor(promptTokens);
        usedBlocks -= blocks;
        heldBlocks -= blocks;
        if (!waiting.isEmpty()) {
            wake();
        }
    }

    /**
     * Decode role: the KV of {@code request} is being fetched (vLLM counts the request among the waiting ones); it is
     * submitted when the fetch ends.
     */
    public void kvFetchStarted(EngineRequest request) {
        scrape.sync(queue.now());
        kvFetches++;
        fetchBlocks += blocksFor(request.promptTokens + request.maxTokens);
    }

    public void kvFetchFinished(EngineRequest request) {
        scrape.sync(queue.now());
        kvFetches--;
        fetchBlocks -= blocksFor(request.promptTokens + request.maxTokens);
    }

    /** The engine metrics the gateway holds for this pod at {@code now}: the last scrape, or ABSENT before it. */
    public PodMetrics metrics(long now) {
        return scrape.read(now);
    }

    /** True when nothing is queued, running, held or in transfer: the end-of-run invariant. */
    public boolean idle() {
        return waiting.isEmpty() && running.isEmpty() && inOverhead == 0 && kvFetches == 0 && usedBlocks == 0
                && heldBlocks == 0 && !stepping;
    }

    /** One line of what the engine still holds, for an invariant failure message. */
    public String describeState() {
        return pod.name() + ": waiting=" + waiting.size() + " running=" + running.size() + " inOverhead=" + inOverhead
                + " kvFetches=" + kvFetches + " usedBlocks=" + usedBlocks + " heldBlocks=" + heldBlocks
                + " stepping=" + stepping;
    }

    /** The state behind one scrape, sampled at boundary {@code at} (nothing has changed since then). */
    PodMetrics metricsAt(long at) {
        long intervalNanos = scrape.intervalNanos();
        long window = Math.max(1, THROUGHPUT_WINDOW_NANOS / intervalNanos) * intervalNanos;
        long first = Math.max(scrape.firstScrapeNanos(), at - window);
        double throughput = Double.NaN;
        if (first < at) {
            long delta = generatedHistory.valueBefore(at) - generatedHistory.valueBefore(first);
            throughput = delta / ((at - first) / 1e9);
        }
        double kvUsage = Math.min(1.0, (double) usedBlocks / capacityBlocks);
        // vLLM's cache_config_info: block_size × num_gpu_blocks.
        return new PodMetrics(waiting.size() + kvFetches, Double.NaN, Double.NaN, kvUsage, throughput,
                counters.avgPrefillMillis(), (double) capacityBlocks * timing.blockSizeTokens(), at);
    }

    @Override
    public void fire(long now) {
        scrape.sync(now);
        stepping = false;
        counters.busyNanos += now - stepStart;
        counters.steps++;
        completeStep(now);
        planStep(now);
    }

    private void enqueue(EngineRequest request, long now) {
        scrape.sync(now);
        waiting.addLast(request);
        wake();
    }

    /** Plans a step at the current instant, after every other event of this instant (engine-sim defers it too). */
    private void wake() {
        if (stepping || kickScheduled) {
            return;
        }
        kickScheduled = true;
        queue.schedule(queue.now(), kick);
    }

    private void onKick(long now) {
        kickScheduled = false;
        if (!stepping) {
            planStep(now);
        }
    }

    private void planStep(long now) {
        scrape.sync(now);
        admit(now);
        if (running.isEmpty()) {
            return;
        }
        decoderCount = 0;
        long context = 0;
        for (EngineRequest r : running) {
            if (r.prefillDone()) {
                addDecoder(r);
                context += r.context();
            }
        }
        double millis = timing.decodeStepMillis(decoderCount, context);
        int budget = timing.tokenBudget() - decoderCount;
        chunkCount = 0;
        for (EngineRequest r : running) {
            if (budget <= 0) {
                break;
            }
            if (!r.prefillDone()) {
                int tokens = Math.min(r.remainingPrefill(), budget);
                millis += timing.prefillChunkMillis(tokens, r.cachedTokens + r.prefilledTokens);
                addChunk(r, tokens);
                budget -= tokens;
            }
        }
        stepping = true;
        stepStart = now;
        stepEnd = now + nanos(millis);
        queue.schedule(stepEnd, this);
    }

    private void admit(long now) {
        while (!waiting.isEmpty() && running.size() < timing.maxNumSeqs()) {
            EngineRequest next = waiting.peekFirst();
            int blocks = blocksFor(next.promptTokens + next.maxTokens);
            if (usedBlocks + blocks > capacityBlocks) {
                return; // first come first served: everything behind it waits too
            }
            waiting.pollFirst();
            usedBlocks += blocks;
            next.reservedBlocks = blocks;
            next.admittedAt = now;
            if (next.needsPrefill) {
                int hit = cache.leadingHits(next.blockHashes) * timing.blockSizeTokens();
                next.cachedTokens = Math.max(0, Math.min(hit, next.promptTokens - 1));
                counters.prefixQueriedTokens += next.promptTokens;
                counters.prefixHitTokens += next.cachedTokens;
            }
            running.add(next);
        }
    }

    private void completeStep(long now) {
        long emittedBefore = counters.generatedTokens;
        for (int i = 0; i < chunkCount; i++) {
            EngineRequest r = chunks[i];
            chunks[i] = null;
            r.prefilledTokens += chunkTokens[i];
            r.stepTokens = 0;
            if (r.prefillDone()) {
                cache.insert(r.blockHashes);
                counters.prefillCount++;
                counters.prefillSecondsSum += (now - r.admittedAt) / 1e9;
                emit(r, now);
            }
        }
        if (events != null) {
            events.publish(); // one batch per step, as vLLM publishes
        }
        for (int i = 0; i < decoderCount; i++) {
            EngineRequest r = decoders[i];
            decoders[i] = null;
            if (!r.finished) {
                emit(r, now);
            }
        }
        if (counters.generatedTokens != emittedBefore) {
            generatedHistory.record(now, counters.generatedTokens);
            running.removeIf(r -> r.finished);
        }
    }

    private void emit(EngineRequest r, long now) {
        int index = r.generated++;
        counters.generatedTokens++;
        if (index == 0) {
            r.firstTokenAt = now;
            counters.promptTokens += r.promptTokens;
            r.listener.firstToken(this, r, now);
        }
        if (r.generated >= r.maxTokens) {
            r.finished = true;
            usedBlocks -= r.reservedBlocks;
            r.reservedBlocks = 0;
            counters.finished++;
            r.listener.finished(this, r, now);
        }
    }

    private void addDecoder(EngineRequest r) {
        if (decoderCount == decoders.length) {
            decoders = Arrays.copyOf(decoders, decoderCount * 2);
        }
        decoders[decoderCount++] = r;
    }

    private void addChunk(EngineRequest r, int tokens) {
        if (chunkCount == chunks.length) {
            chunks = Arrays.copyOf(chunks, chunkCount * 2);
            chunkTokens = Arrays.copyOf(chunkTokens, chunkCount * 2);
        }
        chunks[chunkCount] = r;
        chunkTokens[chunkCount++] = tokens;
        r.stepTokens = tokens;
    }

    int blocksFor(int tokens) {
        return (tokens + timing.blockSizeTokens() - 1) / timing.blockSizeTokens();
    }

    /** Modelled milliseconds as virtual nanoseconds. */
    static long nanos(double millis) {
        return Math.round(millis * 1e6);
    }

    // Read-only views for EngineForecast (the oracle), which must see the true queues.
    ArrayDeque<EngineRequest> waitingQueue() {
        return waiting;
    }

    List<EngineRequest> runningList() {
        return running;
    }

    int freeBlocks() {
        return capacityBlocks - usedBlocks;
    }

    /** Prompt tokens of requests still in their a − d overhead, about to queue. */
    long overheadTokens() {
        return overheadTokens;
    }

    /** Blocks that requests whose KV is being fetched will reserve when they arrive. */
    int fetchBlocks() {
        return fetchBlocks;
    }

    long stepEnd() {
        return stepping ? stepEnd : queue.now();
    }

    long linkFreeAt() {
        return Math.max(linkFreeAt, queue.now());
    }

    int cachedTokens(long[] hashes, int promptTokens) {
        return Math.max(0, Math.min(cache.peekLeadingHits(hashes) * timing.blockSizeTokens(), promptTokens - 1));
    }
}
