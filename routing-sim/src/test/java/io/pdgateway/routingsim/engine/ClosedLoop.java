package io.pdgateway.routingsim.engine;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import io.pdgateway.routingsim.event.EventQueue;
import io.pdgateway.sim.TimingProfile;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * A fixed-concurrency benchmark client against one standard pod, as the published aggregated-serving measurements
 * were taken (AIC silicon rows, vLLM CI, Lambda): {@code concurrency} clients, each sending its next request the
 * moment the previous one ends. Clients start spread over one request's duration, so the pod settles into the steady
 * state those benchmarks report instead of every client prefilling in lockstep.
 */
final class ClosedLoop implements EngineListener {
    private final EventQueue queue = new EventQueue();
    private final SimEngine engine;
    private final int isl;
    private final int osl;
    private final int rounds;
    private final int warmupRounds;
    private final int[] sent;
    private final Map<EngineRequest, Integer> client = new IdentityHashMap<>();
    private double tpotSum;
    private double ttftSum;
    private int measured;

    private ClosedLoop(TimingProfile timing, int concurrency, int isl, int osl, int rounds, int warmupRounds) {
        Pod pod = new Pod("default", "bench", "m", "10.0.0.1", 8000, 8000, "vllm", PodRole.OTHER, null, null, 8998, null,
                Map.of());
        this.engine = new SimEngine(pod, EngineRole.STANDARD, timing, queue, 50_000_000L, 0);
        this.isl = isl;
        this.osl = osl;
        this.rounds = rounds;
        this.warmupRounds = warmupRounds;
        this.sent = new int[concurrency];
    }

    /** Mean time per output token, ms, of the requests after each client's warm-up rounds. */
    static ClosedLoop run(TimingProfile timing, int concurrency, int isl, int osl, int rounds) {
        ClosedLoop loop = new ClosedLoop(timing, concurrency, isl, osl, rounds, 1);
        double spreadMillis = timing.prefillMillis(isl, 0) + osl * timing.decodeStepMillis(concurrency,
                (long) concurrency * (isl + osl / 2));
        for (int i = 0; i < concurrency; i++) {
            int c = i;
            loop.queue.schedule(Math.round(spreadMillis * 1e6 * i / concurrency), now -> loop.send(c));
        }
        loop.queue.run();
        return loop;
    }

    double tpotMillis() {
        return tpotSum / measured;
    }

    double ttftMillis() {
        return ttftSum / measured;
    }

    private void send(int c) {
        EngineRequest r = new EngineRequest(new long[0], isl, osl, true, this);
        client.put(r, c);
        sent[c]++;
        r.submittedAt = queue.now();
        engine.submit(r);
    }

    @Override
    public void firstToken(SimEngine engine, EngineRequest request, long now) {
    }

    @Override
    public void finished(SimEngine engine, EngineRequest request, long now) {
        int c = client.remove(request);
        if (sent[c] > warmupRounds) {
            tpotSum += (now - request.firstTokenAt) / 1e6 / (osl - 1);
            ttftSum += (request.firstTokenAt - request.submittedAt) / 1e6;
            measured++;
        }
        if (sent[c] < rounds) {
            send(c);
        }
    }

    @Override
    public void rejected(SimEngine engine, EngineRequest request, String reason, long now) {
        throw new IllegalStateException(reason);
    }
}
