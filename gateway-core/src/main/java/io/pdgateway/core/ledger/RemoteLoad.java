package io.pdgateway.core.ledger;

import java.util.HashMap;
import java.util.Map;

/**
 * What the other gateway replicas have charged, per pod, as last read from Redis: their running requests and, when
 * the decode ledger is shared, their decode tokens and the age of their outstanding decode requests. Immutable; the
 * sync swaps in a new one each round.
 */
public final class RemoteLoad {
    public static final RemoteLoad NONE = new RemoteLoad(Map.of());

    /**
     * One pod as the other replicas see it, summed over replicas.
     *
     * @param ageSumSeconds Σ (t − routed_at) of their outstanding decode requests at {@code atEpochMillis}
     */
    public record PodLoad(long running, long decodeTokens, long decodeRequests, double ageSumSeconds, long atEpochMillis) {
        /** The age sum extrapolated to {@code nowEpochMillis}: every outstanding request aged by the elapsed time. */
        public double ageSumSecondsAt(long nowEpochMillis) {
            return ageSumSeconds + decodeRequests * Math.max(0, nowEpochMillis - atEpochMillis) / 1000.0;
        }

        PodLoad plus(PodLoad other, long nowEpochMillis) {
            return new PodLoad(running + other.running, decodeTokens + other.decodeTokens,
                    decodeRequests + other.decodeRequests,
                    ageSumSecondsAt(nowEpochMillis) + other.ageSumSecondsAt(nowEpochMillis), nowEpochMillis);
        }
    }

    private final Map<String, PodLoad> pods;

    private RemoteLoad(Map<String, PodLoad> pods) {
        this.pods = pods;
    }

    /** Sums several replicas' loads, each a map of pod id → load. */
    public static RemoteLoad sum(Iterable<Map<String, PodLoad>> replicas, long nowEpochMillis) {
        Map<String, PodLoad> total = new HashMap<>();
        for (Map<String, PodLoad> replica : replicas) {
            replica.forEach((pod, load) -> total.merge(pod, load, (a, b) -> a.plus(b, nowEpochMillis)));
        }
        return new RemoteLoad(Map.copyOf(total));
    }

    /**
     * What one replica publishes to the others: per pod its running requests and, with {@code shareDecodeLedger}, its
     * decode ledger (tokens, requests and their age sum at {@code nanoTime}), stamped {@code nowEpochMillis}.
     */
    public static Map<String, PodLoad> published(RequestLedger requests, TokenLedger tokens, boolean shareDecodeLedger,
            long nanoTime, long nowEpochMillis) {
        Map<String, PodLoad> pods = new HashMap<>();
        requests.runningByPod().forEach((id, running) -> pods.put(id, new PodLoad(running, 0, 0, 0, nowEpochMillis)));
        if (shareDecodeLedger) {
            for (String id : tokens.podIds()) {
                long decodeRequests = tokens.decodeRequests(id);
                if (decodeRequests == 0) {
                    continue;
                }
                PodLoad base = pods.get(id);
                pods.put(id, new PodLoad(base == null ? 0 : base.running(), tokens.decodeTokens(id), decodeRequests,
                        tokens.decodeAgeSeconds(id, nanoTime), nowEpochMillis));
            }
        }
        return pods;
    }

    /** The pod's load at the other replicas, or null when they hold nothing on it. */
    public PodLoad pod(String podId) {
        return pods.get(podId);
    }

    public boolean isEmpty() {
        return pods.isEmpty();
    }
}
