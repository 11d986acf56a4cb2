package io.pdgateway.routingsim.engine;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import io.pdgateway.routingsim.event.EventQueue;
import io.pdgateway.sim.TimingProfile;
import java.util.IdentityHashMap;
import java.util.Map;

/** One engine on its own virtual clock, recording when each request produced its first and last token. */
final class EngineHarness implements EngineListener {
    static final long MS = 1_000_000L;
    /** The default scrape interval (AIBRIX_POD_METRIC_REFRESH_INTERVAL_MS = 50). */
    static final long SCRAPE = 50 * MS;

    final EventQueue queue = new EventQueue();
    final Map<EngineRequest, Long> first = new IdentityHashMap<>();
    final Map<EngineRequest, Long> done = new IdentityHashMap<>();
    final Map<EngineRequest, String> refused = new IdentityHashMap<>();
    final SimEngine engine;

    EngineHarness(EngineRole role, TimingProfile timing) {
        PodRole podRole = role == EngineRole.PREFILL ? PodRole.PREFILL : role == EngineRole.DECODE ? PodRole.DECODE
                : PodRole.OTHER;
        Pod pod = new Pod("default", "pod", "m", "10.0.0.1", 8000, 8000, "vllm", podRole,
                role == EngineRole.STANDARD ? null : "rs", null, 8998, null, Map.of());
        this.engine = new SimEngine(pod, role, timing, queue, SCRAPE, 0);
    }

    EngineRequest request(int prompt, int output, boolean needsPrefill, long... hashes) {
        return new EngineRequest(hashes, prompt, output, needsPrefill, this);
    }

    /** Submits at virtual time {@code atNanos}. */
    void submitAt(long atNanos, EngineRequest request) {
        queue.schedule(atNanos, now -> engine.submit(request));
    }

    double firstMs(EngineRequest r) {
        return first.get(r) / 1e6;
    }

    double doneMs(EngineRequest r) {
        return done.get(r) / 1e6;
    }

    @Override
    public void firstToken(SimEngine engine, EngineRequest request, long now) {
        first.put(request, now);
    }

    @Override
    public void finished(SimEngine engine, EngineRequest request, long now) {
        done.put(request, now);
    }

    @Override
    public void rejected(SimEngine engine, EngineRequest request, String reason, long now) {
        refused.put(request, reason);
    }

    static long[] blocks(int count, long base) {
        long[] hashes = new long[count];
        for (int i = 0; i < count; i++) {
            hashes[i] = base + i;
        }
        return hashes;
    }
}
