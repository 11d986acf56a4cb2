package io.pdgateway.core.routing;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.predict.PrefillState;
import io.pdgateway.core.predict.PrefillTimeModel;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** A LoadView with every signal set by pod name, for scenario tables. Unset values are zero / absent. */
public final class FixedLoad implements LoadView {
    private final Map<String, Integer> prefills = new HashMap<>();
    private final Map<String, Integer> running = new HashMap<>();
    private final Map<String, Integer> pending = new HashMap<>();
    private final Set<String> observed = new HashSet<>();
    private final Map<String, Double> drain = new HashMap<>();
    private final Map<String, double[]> metrics = new HashMap<>();
    private final Map<String, long[]> tokens = new HashMap<>();
    private final Map<String, Double> decodeAge = new HashMap<>();

    private final Set<String> ejected = new HashSet<>();
    private final Map<String, double[]> prefillModels = new HashMap<>();
    private final Map<Long, Double> prefixRequests = new HashMap<>();
    private final Map<String, Double> prefillErrors = new HashMap<>();

    /**
     * predicted_ttft: {@code requests} recent requests carried the first {@code blocks} blocks of the tables' prompt
     * ({@link Contexts.Request}: ten blocks of seed 1).
     */
    public FixedLoad prefixRequests(int blocks, double requests) {
        prefixRequests.put(Contexts.Request.promptHashes()[blocks - 1], requests);
        return this;
    }

    @Override
    public double prefixRequests(long[] blockHashes, int blocks) {
        return prefixRequests.getOrDefault(blockHashes[blocks - 1], 0.0);
    }

    /**
     * predicted_ttft: the pod's queue ahead of a new leg, in milliseconds, and its compute of a leg: a fixed cost plus a
     * cost per uncached token (cached tokens cost nothing here). Pods without one predict NaN.
     */
    public FixedLoad prefillModel(String pod, double queueMillis, double fixedMillis, double millisPerToken) {
        prefillModels.put(pod, new double[] {queueMillis, fixedMillis, millisPerToken});
        return this;
    }

    /** The queue is written as a head that far behind: the answer adds it to the compute (see PrefillState.write). */
    @Override
    public boolean prefillState(Pod pod, double[] into, int at) {
        double[] m = prefillModels.get(pod.name());
        if (m == null) {
            return false;
        }
        PrefillState.write(into, at, new PrefillTimeModel.Coefficients(m[1], m[2], 0), 0, 0, 0, -m[0]);
        return true;
    }

    /** predicted_ttft: the pod's prefill model's mean relative error (0.05 is 5 %); NaN when unset. */
    public FixedLoad prefillError(String pod, double error) {
        prefillErrors.put(pod, error);
        return this;
    }

    @Override
    public double prefillModelError(Pod pod) {
        return prefillErrors.getOrDefault(pod.name(), Double.NaN);
    }

    /** Outlier detection took the pod out. */
    public FixedLoad ejecting(String pod) {
        ejected.add(pod);
        return this;
    }

    @Override
    public boolean ejected(Pod pod) {
        return ejected.contains(pod.name());
    }

    /** token_load prefill counters. */
    public FixedLoad tokens(String pod, long active, long kv) {
        tokens.put(pod, new long[] {active, kv, tokens.getOrDefault(pod, new long[3])[2]});
        return this;
    }

    /** token_load decode counters: prompt tokens held and Σ seconds since each request was routed. */
    public FixedLoad decodeTokens(String pod, long decode, double ageSeconds) {
        long[] t = tokens.getOrDefault(pod, new long[3]);
        tokens.put(pod, new long[] {t[0], t[1], decode});
        decodeAge.put(pod, ageSeconds);
        return this;
    }

    @Override
    public long activeTokens(Pod pod) {
        return tokens.getOrDefault(pod.name(), new long[3])[0];
    }

    @Override
    public long kvTokens(Pod pod) {
        return tokens.getOrDefault(pod.name(), new long[3])[1];
    }

    @Override
    public long decodeTokens(Pod pod) {
        return tokens.getOrDefault(pod.name(), new long[3])[2];
    }

    @Override
    public double decodeAgeSeconds(Pod pod) {
        return decodeAge.getOrDefault(pod.name(), 0.0);
    }

    public FixedLoad prefilling(String pod, int count) {
        prefills.put(pod, count);
        return this;
    }

    /** Running requests routed by this gateway; marks the pod as having a running count. */
    public FixedLoad running(String pod, int count) {
        running.put(pod, count);
        observed.add(pod);
        return this;
    }

    public FixedLoad pending(String pod, int count) {
        pending.put(pod, count);
        return this;
    }

    public FixedLoad drain(String pod, double rate) {
        drain.put(pod, rate);
        return this;
    }

    private double[] m(String pod) {
        return metrics.computeIfAbsent(pod, k -> new double[] {Double.NaN, Double.NaN, Double.NaN, Double.NaN});
    }

    public FixedLoad waiting(String pod, double value) {
        m(pod)[0] = value;
        return this;
    }

    public FixedLoad kv(String pod, double usage) {
        m(pod)[1] = usage;
        return this;
    }

    public FixedLoad throughput(String pod, double tokensPerSecond) {
        m(pod)[2] = tokensPerSecond;
        return this;
    }

    public FixedLoad avgPrefillMillis(String pod, double millis) {
        m(pod)[3] = millis;
        return this;
    }

    @Override
    public int inFlightPrefills(Pod pod) {
        return prefills.getOrDefault(pod.name(), 0);
    }

    @Override
    public int runningRequests(Pod pod) {
        return running.getOrDefault(pod.name(), 0) + pending.getOrDefault(pod.name(), 0);
    }

    @Override
    public int pendingDecodes(Pod pod) {
        return pending.getOrDefault(pod.name(), 0);
    }

    @Override
    public boolean hasRunningMetric(Pod pod) {
        return observed.contains(pod.name());
    }

    @Override
    public double drainRate(Pod pod) {
        return drain.getOrDefault(pod.name(), 0.0);
    }

    @Override
    public PodMetrics metrics(Pod pod) {
        double[] v = metrics.get(pod.name());
        if (v == null) {
            return PodMetrics.ABSENT;
        }
        return new PodMetrics(v[0], Double.NaN, Double.NaN, v[1], v[2], v[3], Double.NaN, 0);
    }
}
