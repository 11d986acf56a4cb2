package io.pdgateway.core.bucket;

import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.Roleset;
import io.pdgateway.core.model.RoutingConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Adaptive bucket serving's state: the per-model length histograms (recorded on the request path, a few arithmetic
 * operations) and the current plan (recomputed periodically off the request path and swapped in whole).
 */
public final class BucketServe {
    /** How fast old traffic fades: after five minutes a request weighs half as much as a new one. */
    public static final double HALF_LIFE_SECONDS = 300;

    private final boolean tokenMass;
    private final Map<String, LengthHistogram> histograms = new ConcurrentHashMap<>();
    private volatile BucketPlan plan = BucketPlan.EMPTY;

    /** @param tokenMass true for AIBRIX_BUCKET_SERVE_MODE=throughput, false for rps */
    public BucketServe(boolean tokenMass) {
        this.tokenMass = tokenMass;
    }

    public void record(String model, int promptTokens) {
        histograms.computeIfAbsent(model, k -> new LengthHistogram()).record(promptTokens);
    }

    public BucketPlan plan() {
        return plan;
    }

    /**
     * Fades the histograms by the time since the last replan and recomputes every model's bands from the rolesets'
     * declared ranges (each pod's default profile) and the traffic seen.
     */
    public BucketPlan replan(ClusterSnapshot snapshot, double secondsSinceLast) {
        double decay = Math.pow(0.5, secondsSinceLast / HALF_LIFE_SECONDS);
        Map<String, List<Band>> bands = new HashMap<>();
        for (ModelPods model : snapshot.models()) {
            LengthHistogram histogram = histograms.get(model.model());
            if (histogram == null) {
                continue;
            }
            histogram.decay(decay);
            List<RolesetRange> ranges = ranges(model);
            if (!ranges.isEmpty()) {
                bands.put(model.model(), List.copyOf(BucketPlanner.plan(ranges, histogram.weights(tokenMass))));
            }
        }
        histograms.keySet().retainAll(snapshotModels(snapshot));
        BucketPlan next = new BucketPlan(bands);
        plan = next;
        return next;
    }

    private static List<String> snapshotModels(ClusterSnapshot snapshot) {
        List<String> names = new ArrayList<>();
        snapshot.models().forEach(m -> names.add(m.model()));
        return names;
    }

    /** Each complete roleset's range: where every one of its pods' declared ranges overlap. */
    static List<RolesetRange> ranges(ModelPods model) {
        List<RolesetRange> ranges = new ArrayList<>();
        for (Roleset roleset : model.rolesets().values()) {
            if (!roleset.isComplete()) {
                continue;
            }
            long min = 0;
            long max = Integer.MAX_VALUE;
            List<Pod> pods = new ArrayList<>(roleset.prefills());
            pods.addAll(roleset.decodes());
            for (Pod pod : pods) {
                RoutingConfig config = pod.routingConfig(null);
                min = Math.max(min, Math.max(0, config.promptLenBucketMinLength()));
                max = Math.min(max, config.promptLenBucketMaxLength() <= 0 ? Integer.MAX_VALUE
                        : config.promptLenBucketMaxLength());
            }
            if (min <= max) {
                ranges.add(new RolesetRange(roleset.name(), (int) min, (int) max, pods.size()));
            }
        }
        return ranges;
    }
}
