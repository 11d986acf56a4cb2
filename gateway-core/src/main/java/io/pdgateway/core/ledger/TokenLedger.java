package io.pdgateway.core.ledger;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.RowEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.function.Consumer;

/**
 * The token-weighted load the router has charged to each pod (spec, "Token Load Scoring Policy"), keyed by
 * namespace/name. Prefill pods carry active_tokens (prompts being computed) and kv_tokens (prompts whose KV is still
 * resident for a running decode); decode pods carry decode_tokens (whole prompts they hold) plus, for the output
 * growth estimate, how many requests they hold and the sum of their routing times. Charges are made in the same
 * critical section as the selection; releases are idempotent and no counter goes below zero. Time is passed in.
 *
 * <p>A charge holds the counters it added to, so its release lands there even after the janitor or a discovery change
 * dropped the pod; adding a charge and dropping an idle pod are atomic per pod, so neither loses the other.
 */
public final class TokenLedger {
    /** Spec: the janitor forgets pods at zero load and untouched for a whole minute. */
    public static final long IDLE_FORGET_NANOS = 60_000_000_000L;

    /** One pod's counters. Longs in tokens; decodeRoutedAtSum in nanoseconds. */
    /**
     * One pod's token counters, fields of this one object updated atomically through field updaters, so a decision
     * reading every pod's load reads one object per pod, not one per counter.
     */
    static final class PodTokens extends RowEntry {
        static final AtomicLongFieldUpdater<PodTokens> ACTIVE = updater("active");
        static final AtomicLongFieldUpdater<PodTokens> KV = updater("kv");
        static final AtomicLongFieldUpdater<PodTokens> DECODE = updater("decode");
        static final AtomicLongFieldUpdater<PodTokens> DECODE_REQUESTS = updater("decodeRequests");
        static final AtomicLongFieldUpdater<PodTokens> DECODE_ROUTED_AT_SUM = updater("decodeRoutedAtSum");

        volatile long active;
        volatile long kv;
        volatile long decode;
        volatile long decodeRequests;
        volatile long decodeRoutedAtSum;
        final String address;
        volatile long touchedNanos;

        PodTokens(String address) {
            this.address = address;
        }

        boolean idle() {
            return active == 0 && kv == 0 && decode == 0 && decodeRequests == 0;
        }

        private static AtomicLongFieldUpdater<PodTokens> updater(String field) {
            return AtomicLongFieldUpdater.newUpdater(PodTokens.class, field);
        }
    }

    private final Map<String, PodTokens> pods = new ConcurrentHashMap<>();
    private final Map<Long, Charge> outstanding = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    /** Changes after every pod entry removed from or replaced in {@link #pods}: {@link LedgerRows} refills when it does. */
    private final AtomicLong version = new AtomicLong();
    /** Changes after every entry added for a pod that had none: {@link LedgerRows} fills only its empty rows. */
    private final AtomicLong additions = new AtomicLong();

    long version() {
        return version.get();
    }

    long additions() {
        return additions.get();
    }

    /** The pod's counters as the reads below find them (by id), or null. */
    PodTokens entry(Pod pod) {
        return pods.get(pod.id());
    }

    private static long read(Map<String, PodTokens> pods, String id, java.util.function.ToLongFunction<PodTokens> f) {
        PodTokens tokens = pods.get(id);
        return tokens == null ? 0 : f.applyAsLong(tokens);
    }

    public long activeTokens(String podId) {
        return read(pods, podId, t -> t.active);
    }

    public long kvTokens(String podId) {
        return read(pods, podId, t -> t.kv);
    }

    public long decodeTokens(String podId) {
        return read(pods, podId, t -> t.decode);
    }

    public long decodeRequests(String podId) {
        return read(pods, podId, t -> t.decodeRequests);
    }

    /** Σ (now − routed_at) over the pod's outstanding decode requests, in seconds. */
    public double decodeAgeSeconds(String podId, long nowNanos) {
        PodTokens tokens = pods.get(podId);
        return tokens == null ? 0 : ageSeconds(tokens, nowNanos);
    }

    static double ageSeconds(PodTokens tokens, long nowNanos) {
        return ageSeconds(tokens.decodeRequests, tokens.decodeRoutedAtSum, nowNanos);
    }

    /** Σ (now − routed_at) in seconds over {@code requests} routed at times summing to {@code routedAtSum}. */
    static double ageSeconds(long requests, long routedAtSum, long nowNanos) {
        return requests == 0 ? 0 : (requests * nowNanos - routedAtSum) / 1e9;
    }

    /** Pods the ledger currently tracks (for the gauges). */
    public List<String> podIds() {
        return new ArrayList<>(pods.keySet());
    }

    /** Sum of every counter: zero when nothing is charged. */
    public long outstandingTokens() {
        long total = 0;
        for (PodTokens t : pods.values()) {
            total += t.active + t.kv + t.decode + t.decodeRequests;
        }
        return total;
    }

    /**
     * Charges one PD request: {@code prefillCharge} (request_cost + new_tokens) to the prefill pod, active and kv,
     * and {@code promptTokens} to the decode pod.
     *
     * @param ttlNanos the request's AIBRIX_TOKEN_LOAD_TTL_SECONDS (its profile's, when it sets one): the janitor
     *     force-releases the charge once it is older
     */
    public Charge charge(Pod prefill, long prefillCharge, Pod decode, long promptTokens, long ttlNanos, long nowNanos) {
        PodTokens prefillBefore = pods.get(prefill.id());
        PodTokens decodeBefore = pods.get(decode.id());
        PodTokens p = pods.compute(prefill.id(), (id, t) -> {
            PodTokens tokens = live(t, prefill);
            PodTokens.ACTIVE.addAndGet(tokens, prefillCharge);
            PodTokens.KV.addAndGet(tokens, prefillCharge);
            tokens.changed();
            tokens.touchedNanos = nowNanos;
            return tokens;
        });
        PodTokens d = pods.compute(decode.id(), (id, t) -> {
            PodTokens tokens = live(t, decode);
            PodTokens.DECODE.addAndGet(tokens, promptTokens);
            PodTokens.DECODE_REQUESTS.incrementAndGet(tokens);
            PodTokens.DECODE_ROUTED_AT_SUM.addAndGet(tokens, nowNanos);
            tokens.changed();
            tokens.touchedNanos = nowNanos;
            return tokens;
        });
        if (prefillBefore != null && p != prefillBefore || decodeBefore != null && d != decodeBefore) {
            version.incrementAndGet(); // a pod re-created: its old entry replaced
        } else if (p != prefillBefore || d != decodeBefore) {
            additions.incrementAndGet(); // a pod's first charge
        }
        Charge charge = new Charge(ids.incrementAndGet(), prefill.id(), p, prefillCharge, decode.id(), d, promptTokens,
                nowNanos, ttlNanos);
        outstanding.put(charge.id, charge);
        return charge;
    }

    /** The pod's counters, fresh when it has none or they belong to an earlier pod of the same name. */
    private static PodTokens live(PodTokens tokens, Pod pod) {
        return tokens != null && tokens.address.equals(pod.address()) ? tokens : new PodTokens(pod.address());
    }

    /** What one janitor pass did: the pods it forgot and how many charges it had to force-release. */
    public record Sweep(List<String> forgottenPods, int forcedReleases) {}

    /**
     * The janitor, once a minute: force-releases charges older than their TTL (reporting each, since a leak means a
     * lost release somewhere) and forgets pods idle for a minute.
     */
    public Sweep sweep(long nowNanos, Consumer<String> warn) {
        int forced = 0;
        for (Charge charge : outstanding.values()) {
            if (nowNanos - charge.chargedAtNanos > charge.ttlNanos && charge.releaseAll(nowNanos)) {
                forced++;
                warn.accept("token_load charge of " + charge.prefillCharge + " tokens on " + charge.prefillId + " / "
                        + charge.promptTokens + " on " + charge.decodeId + " outlived its TTL; force-released");
            }
        }
        List<String> forgotten = new ArrayList<>();
        for (String id : pods.keySet()) {
            pods.computeIfPresent(id, (k, tokens) -> {
                if (tokens.idle() && nowNanos - tokens.touchedNanos > IDLE_FORGET_NANOS) {
                    forgotten.add(id);
                    return null;
                }
                return tokens;
            });
        }
        if (!forgotten.isEmpty()) {
            version.incrementAndGet();
        }
        return new Sweep(forgotten, forced);
    }

    /** Drops every pod not in {@code present} (id → address) or re-created at another address; returns their ids. */
    public List<String> retainOnly(Map<String, String> present) {
        List<String> dropped = new ArrayList<>();
        for (String id : pods.keySet()) {
            pods.computeIfPresent(id, (k, tokens) -> {
                if (tokens.address.equals(present.get(k))) {
                    return tokens;
                }
                dropped.add(k);
                return null;
            });
        }
        if (!dropped.isEmpty()) {
            version.incrementAndGet();
        }
        return dropped;
    }

    /** {@code amount} less, never below 0. */
    private static void subtract(AtomicLongFieldUpdater<PodTokens> counter, PodTokens tokens, long amount) {
        long v;
        do {
            v = counter.get(tokens);
        } while (!counter.compareAndSet(tokens, v, Math.max(0, v - amount)));
    }

    /** One request's token charges. Each part is released at most once. */
    public final class Charge {
        final long id;
        final String prefillId;
        final String decodeId;
        private final PodTokens prefill;
        private final PodTokens decode;
        final long prefillCharge;
        final long promptTokens;
        final long chargedAtNanos;
        final long ttlNanos;
        private final AtomicBoolean activeReleased = new AtomicBoolean();
        private final AtomicBoolean allReleased = new AtomicBoolean();

        private Charge(long id, String prefillId, PodTokens prefill, long prefillCharge, String decodeId,
                PodTokens decode, long promptTokens, long now, long ttlNanos) {
            this.id = id;
            this.prefillId = prefillId;
            this.prefill = prefill;
            this.prefillCharge = prefillCharge;
            this.decodeId = decodeId;
            this.decode = decode;
            this.promptTokens = promptTokens;
            this.chargedAtNanos = now;
            this.ttlNanos = ttlNanos;
        }

        /** The prefill call returned: its compute is done, its KV stays resident. */
        public void releaseActive(long nowNanos) {
            if (activeReleased.compareAndSet(false, true)) {
                subtract(PodTokens.ACTIVE, prefill, prefillCharge);
                prefill.changed();
                prefill.touchedNanos = nowNanos;
            }
        }

        /** The request completed, or its prefill failed: everything goes. True when this call released it. */
        public boolean releaseAll(long nowNanos) {
            releaseActive(nowNanos);
            if (!allReleased.compareAndSet(false, true)) {
                return false;
            }
            outstanding.remove(id);
            subtract(PodTokens.KV, prefill, prefillCharge);
            prefill.changed();
            prefill.touchedNanos = nowNanos;
            subtract(PodTokens.DECODE, decode, promptTokens);
            subtract(PodTokens.DECODE_REQUESTS, decode, 1);
            PodTokens.DECODE_ROUTED_AT_SUM.addAndGet(decode, -chargedAtNanos);
            decode.changed();
            decode.touchedNanos = nowNanos;
            return true;
        }
    }
}
