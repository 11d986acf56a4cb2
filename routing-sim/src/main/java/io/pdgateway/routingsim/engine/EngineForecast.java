package io.pdgateway.routingsim.engine;

import io.pdgateway.sim.TimingProfile;
import java.util.Arrays;

/**
 * What an engine would do with one more request, worked out from its true state: every queued and running request,
 * how far each prefill has got, the prefix cache's real contents, the KV actually free, the transfer link's backlog.
 * The oracle routes on this; no gateway can see it. It is an estimate with the same timing model, not a replay: it
 * ignores requests that arrive later and treats the prefill chunks ahead as one run of work.
 */
public final class EngineForecast {
    private EngineForecast() {}

    /**
     * When a prefill of {@code promptTokens} submitted now would emit its first token on a prefill or standard
     * engine: the a − d overhead, the prefill work queued ahead (FCFS), then its own uncached tokens, each step also
     * carrying the decode batch the pod already runs.
     */
    public static long prefillDone(SimEngine engine, long[] hashes, int promptTokens, long now) {
        TimingProfile t = engine.timing();
        double aheadMillis = 0;
        long aheadTokens = 0;
        int decoders = 0;
        long context = 0;
        for (EngineRequest r : engine.runningList()) {
            if (r.prefillDone()) {
                decoders++;
                context += r.context();
                continue;
            }
            int left = r.remainingPrefill() - r.stepTokens;
            if (left > 0) {
                aheadMillis += t.prefillChunkMillis(left, r.promptTokens - r.remainingPrefill() + r.stepTokens);
                aheadTokens += left;
            }
        }
        for (EngineRequest r : engine.waitingQueue()) {
            aheadMillis += t.prefillChunkMillis(r.promptTokens, 0);
            aheadTokens += r.promptTokens;
        }
        aheadMillis += t.prefillPerTokenMillis() * engine.overheadTokens();
        aheadTokens += engine.overheadTokens();
        int cached = engine.cachedTokens(hashes, promptTokens);
        int own = promptTokens - cached;
        int budget = Math.max(1, t.tokenBudget() - decoders);
        double perStep = t.decodeStepMillis(decoders, context);
        double queueMillis = aheadMillis + Math.ceil((double) aheadTokens / budget) * perStep;
        double ownMillis = t.prefillChunkMillis(own, cached) + Math.ceil((double) own / budget) * perStep;
        long overhead = SimEngine.nanos(t.prefillFixedMillis() - t.decodeStepFloorMillis());
        long start = Math.max(engine.stepEnd() + SimEngine.nanos(queueMillis), now + overhead);
        return start + SimEngine.nanos(ownMillis);
    }

    /** When the pod's transfer link would deliver a prompt's KV whose prefill ends at {@code readyAt}. */
    public static long transferDone(SimEngine prefill, int promptTokens, long readyAt) {
        return Math.max(readyAt, prefill.linkFreeAt()) + SimEngine.nanos(prefill.timing().kvTransferMillis(promptTokens));
    }

    /** When a request's first decode token would come, and how long each of its decode steps would take. */
    public record Decode(long firstTokenAt, double stepMillis) {}

    /**
     * A request whose prompt is resident from {@code startAt} on (its KV fetched): it first waits for KV and a
     * sequence slot, then decodes in a batch of everything the pod runs and queues, each step timed d + e·B + f·ΣC.
     */
    public static Decode decode(SimEngine engine, int promptTokens, int outputTokens, long startAt, long now) {
        TimingProfile t = engine.timing();
        int batch = 1 + engine.waitingQueue().size();
        long context = promptTokens + outputTokens / 2;
        int reservedAhead = engine.fetchBlocks();
        for (EngineRequest r : engine.waitingQueue()) {
            context += r.promptTokens + r.maxTokens / 2;
            reservedAhead += engine.blocksFor(r.promptTokens + r.maxTokens);
        }
        int decoders = 0;
        long runningContext = 0;
        for (EngineRequest r : engine.runningList()) {
            batch++;
            context += r.context() + (r.maxTokens - r.generated) / 2;
            if (r.prefillDone()) {
                decoders++;
                runningContext += r.context();
            }
        }
        double stepMillis = t.decodeStepMillis(batch, context);
        double currentStepMillis = t.decodeStepMillis(Math.max(1, decoders), runningContext);
        long wait = admissionWait(engine, engine.blocksFor(promptTokens + outputTokens) + reservedAhead,
                engine.waitingQueue().size() + 1, currentStepMillis);
        long start = Math.max(startAt, now + wait);
        return new Decode(start + SimEngine.nanos(stepMillis), stepMillis);
    }

    /**
     * How long until {@code blocks} of KV and {@code seats} more sequence slots are free, if only running requests
     * finish: each frees its reservation after its remaining tokens at the current step time.
     */
    private static long admissionWait(SimEngine engine, int blocks, int seats, double stepMillis) {
        int free = engine.freeBlocks();
        int freeSeats = engine.timing().maxNumSeqs() - engine.runningList().size();
        if (free >= blocks && freeSeats >= seats) {
            return 0;
        }
        int n = engine.runningList().size();
        long[] finishing = new long[n];
        for (int i = 0; i < n; i++) {
            EngineRequest r = engine.runningList().get(i);
            int steps = r.maxTokens - r.generated + (r.prefillDone() ? 0 : 1);
            finishing[i] = (long) steps << 32 | r.reservedBlocks;
        }
        Arrays.sort(finishing);
        for (long f : finishing) {
            free += (int) f;
            freeSeats++;
            if (free >= blocks && freeSeats >= seats) {
                return SimEngine.nanos((f >>> 32) * stepMillis);
            }
        }
        return SimEngine.nanos(n == 0 ? 0 : (finishing[n - 1] >>> 32) * stepMillis);
    }
}
