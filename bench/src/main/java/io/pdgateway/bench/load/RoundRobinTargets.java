package io.pdgateway.bench.load;

import io.pdgateway.workload.run.ChunkGapSink;
import io.pdgateway.workload.run.RequestResult;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Several targets taken in turn, one request each: the round-robin a client does without a router. Over clients that
 * run both PD legs themselves, one per prefill/decode pair, it is the floor a PD router must beat on real sockets.
 */
public final class RoundRobinTargets implements ChatTarget {
    private final List<ChatTarget> targets;
    private final AtomicInteger next = new AtomicInteger();

    public RoundRobinTargets(List<? extends ChatTarget> targets) {
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("round-robin needs at least one target");
        }
        this.targets = List.copyOf(targets);
    }

    @Override
    public Endpoint endpoint() {
        return targets.get(0).endpoint();
    }

    @Override
    public Buffer body(String prompt, int maxTokens) {
        return targets.get(0).body(prompt, maxTokens);
    }

    @Override
    public Future<RequestResult> send(Buffer body, int promptTokens, String sessionKey, long timeoutMillis,
            double startMillis, double lagMillis, ChunkGapSink gaps) {
        ChatTarget target = targets.get(Math.floorMod(next.getAndIncrement(), targets.size()));
        return target.send(body, promptTokens, sessionKey, timeoutMillis, startMillis, lagMillis, gaps);
    }

    @Override
    public Future<Void> close() {
        List<Future<Void>> closing = new ArrayList<>();
        targets.forEach(t -> closing.add(t.close()));
        return Future.join(closing).mapEmpty();
    }
}
