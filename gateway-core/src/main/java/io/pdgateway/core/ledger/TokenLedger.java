package io.pdgateway.core.ledger;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The token-weighted load the router has charged to each pod (spec, "Token Load Scoring Policy"), keyed by
 * namespace/name. Prefill pods carry active_tokens (prompts being computed) and kv_tokens (prompts whose KV is still
 * resident for a running decode); decode pods carry decode_tokens (whole prompts they hold) plus, for the output
 * growth estimate, how many requests they hold and the sum of their routing times. Charges are made under the
 * selection lock; releases are idempotent and no counter goes below zero. Time is passed in.
 */
public final class TokenLedger {
    /** Spec: the janitor forgets pods at zero load and untouched for a whole minute. */
    public static final long IDLE_FORGET_NANOS = 60_000_000_000L;

    /** One pod's counters. Longs in tokens; decodeRoutedAtSum in nanoseconds. */
    static final class PodTokens {
        final AtomicLong active = new AtomicLong();
        final AtomicLong kv = new AtomicLong();
        final AtomicLong decode = new AtomicLong();
        final AtomicLong decodeRequests = new AtomicLong();
        final AtomicLong decodeRoutedAtSum = new AtomicLong();
        volatile long touchedNanos;

        boolean idle() {
            return active.get() == 0 && kv.get() == 0 && decode.get() == 0 && decodeRequests.get() == 0;
        }
    }

    private final Map<String, PodTokens> pods = new ConcurrentHashMap<>();
    private final Map<Long, Charge> outstanding = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();

    private PodTokens pod(String id, long now) {
        PodTokens tokens = pods.computeIfAbsent(id, k -> new PodTokens());
        tokens.touchedNanos = now;
        return tokens;
    }

    private static long read(Map<String, PodTokens> pods, String id, java.util.function.ToLongFunction<PodTokens> f) {
        PodTokens tokens = pods.get(id);
        return tokens == null ? 0 : f.applyAsLong(tokens);
    }

    public long activeTokens(String podId) {
        return read(pods, podId, t -> t.active.get());
    }

    public long kvTokens(String podId) {
        return read(pods, podId, t -> t.kv.get());
    }

    public long decodeTokens(String podId) {
        return read(pods, podId, t -> t.decode.get());
    }

    public long decodeRequests(String podId) {
        return read(pods, podId, t -> t.decodeRequests.get());
    }

    /** Σ (now − routed_at) over the pod's outstanding decode requests, in seconds. */
    public double decodeAgeSeconds(String podId, long nowNanos) {
        PodTokens tokens = pods.get(podId);
        if (tokens == null) {
            return 0;
        }
        long n = tokens.decodeRequests.get();
        return n == 0 ? 0 : (n * nowNanos - tokens.decodeRoutedAtSum.get()) / 1e9;
    }

    /** Pods the ledger currently tracks (for the gauges). */
    public List<String> podIds() {
        return new ArrayList<>(pods.keySet());
    }

    /** Sum of every counter: zero when nothing is charged. */
    public long outstandingTokens() {
        long total = 0;
        for (PodTokens t : pods.values()) {
            total += t.active.get() + t.kv.get() + t.decode.get() + t.decodeRequests.get();
        }
        return total;
    }

    /**
     * Charges one PD request: {@code prefillCharge} (request_cost + new_tokens) to the prefill pod, active and kv,
     * and {@code promptTokens} to the decode pod.
     */
    public Charge charge(String prefillId, long prefillCharge, String decodeId, long promptTokens, long nowNanos) {
        PodTokens p = pod(prefillId, nowNanos);
        p.active.addAndGet(prefillCharge);
        p.kv.addAndGet(prefillCharge);
        PodTokens d = pod(decodeId, nowNanos);
        d.decode.addAndGet(promptTokens);
        d.decodeRequests.incrementAndGet();
        d.decodeRoutedAtSum.addAndGet(nowNanos);
        Charge charge = new Charge(ids.incrementAndGet(), prefillId, prefillCharge, decodeId, promptTokens, nowNanos);
        outstanding.put(charge.id, charge);
        return charge;
    }

    /**
     * The janitor, once a minute: force-releases charges older than the TTL (reporting each, since a leak means a
     * lost release somewhere) and forgets pods idle for a minute. Returns the forgotten pod ids.
     */
    public List<String> sweep(long ttlNanos, long nowNanos, Consumer<String> warn) {
        for (Charge charge : outstanding.values()) {
            if (nowNanos - charge.chargedAtNanos > ttlNanos) {
                warn.accept("token_load charge of " + charge.prefillCharge + " tokens on " + charge.prefillId + " / "
                        + charge.promptTokens + " on " + charge.decodeId + " outlived its TTL; force-released");
                charge.releaseAll(nowNanos);
            }
        }
        List<String> forgotten = new ArrayList<>();
        pods.forEach((id, tokens) -> {
            if (tokens.idle() && nowNanos - tokens.touchedNanos > IDLE_FORGET_NANOS && pods.remove(id, tokens)) {
                forgotten.add(id);
            }
        });
        return forgotten;
    }

    private void subtract(AtomicLong counter, long amount) {
        counter.getAndUpdate(v -> Math.max(0, v - amount));
    }

    /** One request's token charges. Each part is released at most once. */
    public final class Charge {
        final long id;
        final String prefillId;
        final long prefillCharge;
        final String decodeId;
        final long promptTokens;
        final long chargedAtNanos;
        private final AtomicBoolean activeReleased = new AtomicBoolean();
        private final AtomicBoolean allReleased = new AtomicBoolean();

        private Charge(long id, String prefillId, long prefillCharge, String decodeId, long promptTokens, long now) {
            this.id = id;
            this.prefillId = prefillId;
            this.prefillCharge = prefillCharge;
            this.decodeId = decodeId;
            this.promptTokens = promptTokens;
            this.chargedAtNanos = now;
        }

        /** The prefill call returned: its compute is done, its KV stays resident. */
        public void releaseActive(long nowNanos) {
            if (activeReleased.compareAndSet(false, true)) {
                subtract(pod(prefillId, nowNanos).active, prefillCharge);
            }
        }

        /** The request completed, or its prefill failed: everything goes. */
        public void releaseAll(long nowNanos) {
            releaseActive(nowNanos);
            if (allReleased.compareAndSet(false, true)) {
                outstanding.remove(id);
                subtract(pod(prefillId, nowNanos).kv, prefillCharge);
                PodTokens d = pod(decodeId, nowNanos);
                subtract(d.decode, promptTokens);
                subtract(d.decodeRequests, 1);
                d.decodeRoutedAtSum.addAndGet(-chargedAtNanos);
            }
        }
    }
}
