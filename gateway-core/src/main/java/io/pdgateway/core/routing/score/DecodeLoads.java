package io.pdgateway.core.routing.score;

import io.pdgateway.core.model.MetricsRows.Column;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodMetrics;
import io.pdgateway.core.routing.ClusterLoad;
import io.pdgateway.core.routing.DecisionBuffers;
import io.pdgateway.core.routing.DecisionBuffers.Use;
import io.pdgateway.core.routing.LoadView;
import java.util.List;

/**
 * What the token-counting decode stages read of each decode pod, read once per decision: its running requests, the
 * prompt tokens the ledger holds on it and their summed age, and its scraped generation throughput and KV use (NaN
 * when unknown). The token_load decode policy scores from them and predicted_ttft's picker checks the same pods'
 * limits and what joining them costs; each was reading every pod's slot, ledger entries and scrape on its own. A
 * decision's {@link SideReads} keep the last loads for the list, so the picker's read of the scorer's list is free.
 * The arrays are the decision's working arrays ({@link DecisionBuffers}): read them during the decision, keep none of
 * them.
 */
public final class DecodeLoads {
    private final int[] running;
    private final double[] tokens;
    private final double[] throughput;
    private final double[] kvUsage;
    private final double[] ageSeconds;

    private DecodeLoads(int[] running, double[] tokens, double[] throughput, double[] kvUsage, double[] ageSeconds) {
        this.running = running;
        this.tokens = tokens;
        this.throughput = throughput;
        this.kvUsage = kvUsage;
        this.ageSeconds = ageSeconds;
    }

    /** The loads of these pods, aligned with them. */
    public static DecodeLoads of(List<Pod> pods, LoadView load) {
        if (load instanceof ClusterLoad decision) {
            SideReads reads = decision.sideReads();
            DecodeLoads known = reads.decodeLoads(pods);
            if (known != null) {
                return known;
            }
            DecodeLoads computed = compute(pods, load);
            reads.decodeLoads(pods, computed);
            return computed;
        }
        return compute(pods, load);
    }

    private static DecodeLoads compute(List<Pod> pods, LoadView load) {
        int n = pods.size();
        int[] running = DecisionBuffers.ints(load, Use.DECODE_LOAD_RUNNING, n);
        double[] tokens = DecisionBuffers.doubles(load, Use.DECODE_LOAD_TOKENS, n);
        double[] throughput = DecisionBuffers.doubles(load, Use.DECODE_LOAD_THROUGHPUT, n);
        double[] kvUsage = DecisionBuffers.doubles(load, Use.DECODE_LOAD_KV, n);
        double[] ageSeconds = DecisionBuffers.doubles(load, Use.DECODE_LOAD_AGE, n);
        // The model's decode side is known by slot: its pods' objects need not be read to find their rows.
        ClusterLoad bySlot = load instanceof ClusterLoad decision ? decision : null;
        int[] slots = bySlot == null ? null : bySlot.slotsOf(pods);
        for (int i = 0; i < n; i++) {
            if (slots != null) {
                int slot = slots[i];
                // the rows' copies: see DecodeInputs.compute
                throughput[i] = bySlot.freshMetricAt(slot, Column.GENERATION_THROUGHPUT);
                kvUsage[i] = bySlot.freshMetricAt(slot, Column.KV_CACHE_USAGE);
                running[i] = bySlot.runningRequestsAt(slot);
                tokens[i] = bySlot.decodeTokensAt(slot);
                ageSeconds[i] = bySlot.decodeAgeSecondsAt(slot); // beside the tokens: the same ledger entry
            } else {
                Pod pod = pods.get(i);
                PodMetrics m = load.metrics(pod);
                throughput[i] = m.generationThroughput();
                kvUsage[i] = m.kvCacheUsage();
                running[i] = load.runningRequests(pod);
                tokens[i] = load.decodeTokens(pod);
                ageSeconds[i] = load.decodeAgeSeconds(pod);
            }
        }
        return new DecodeLoads(running, tokens, throughput, kvUsage, ageSeconds);
    }

    /** {@link LoadView#runningRequests} of the pod at position i. */
    public int running(int i) {
        return running[i];
    }

    /** {@link LoadView#decodeTokens} of the pod at position i. */
    public double tokens(int i) {
        return tokens[i];
    }

    /** {@link LoadView#decodeAgeSeconds} of the pod at position i. */
    public double ageSeconds(int i) {
        return ageSeconds[i];
    }

    /** The scraped generation throughput of the pod at position i (tokens/s), NaN when unknown. */
    public double throughput(int i) {
        return throughput[i];
    }

    /** The scraped KV cache use of the pod at position i (0-1), NaN when unknown. */
    public double kvUsage(int i) {
        return kvUsage[i];
    }
}
