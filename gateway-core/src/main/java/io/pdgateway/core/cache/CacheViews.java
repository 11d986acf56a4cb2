package io.pdgateway.core.cache;

import io.pdgateway.core.model.ClusterSnapshot;
import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;

/**
 * Every model's {@link CacheModel}, and the way in for what engines report about their caches ({@link PodCacheEvents},
 * routed to the pod's model). Pods and models come from discovery's view ({@link #retainOnly}); a pod's capacity from
 * {@code capacityBlocks}, which reads its engine's reported KV size or the configured one. Thread-safe.
 */
public final class CacheViews implements PodCacheEvents {
    private final Map<String, CacheModel> models = new ConcurrentHashMap<>();
    private final ToIntFunction<Pod> capacityBlocks;
    private volatile Map<String, Pod> podsById = Map.of();
    private final Map<String, Boolean> live = new ConcurrentHashMap<>();
    /** Pod id → {prompt tokens routed to it to compute, of which its view predicted cached}; pods of discovery only. */
    private final Map<String, LongAdder[]> predicted = new ConcurrentHashMap<>();
    private volatile Consumer<String> firstRouted = id -> { };

    /** @param capacityBlocks the pod's prefix-cache capacity in blocks */
    public CacheViews(ToIntFunction<Pod> capacityBlocks) {
        this.capacityBlocks = capacityBlocks;
    }

    /** The model's view (created empty on first use). */
    public CacheModel model(String model) {
        CacheModel view = models.get(model);
        return view != null ? view : models.computeIfAbsent(model, m -> new CacheModel());
    }

    public int capacityBlocks(Pod pod) {
        return capacityBlocks.applyAsInt(pod);
    }

    /** Follows discovery: pods that left (or came back at another address) are dropped with their blocks. */
    public void retainOnly(ClusterSnapshot snapshot) {
        Map<String, Pod> byId = new HashMap<>();
        Map<String, Map<String, String>> byModel = new HashMap<>();
        for (ModelPods model : snapshot.models()) {
            Map<String, String> present = new HashMap<>();
            for (Pod pod : model.pods()) {
                byId.put(pod.id(), pod);
                present.put(pod.id(), pod.address());
            }
            byModel.put(model.model(), present);
        }
        podsById = Map.copyOf(byId);
        models.keySet().retainAll(byModel.keySet());
        models.forEach((name, view) -> view.retainOnly(byModel.get(name)));
        live.keySet().retainAll(byId.keySet());
        predicted.keySet().retainAll(byId.keySet());
    }

    /**
     * A request was routed to the pod to compute its prompt, of which the pod's view predicted {@code cachedTokens}
     * cached: counted per pod so the prediction can be compared with the hit rate the engine itself reports. The pod
     * is one routing chose, so one of discovery's: the counts are bounded by the pod set, and {@link #retainOnly}
     * drops those of pods that left.
     */
    public void routed(Pod computing, long promptTokens, long cachedTokens) {
        String podId = computing.id();
        LongAdder[] counts = predicted.get(podId);
        if (counts == null) {
            boolean[] created = {false};
            counts = predicted.computeIfAbsent(podId, id -> {
                created[0] = true;
                return new LongAdder[] {new LongAdder(), new LongAdder()};
            });
            if (created[0]) {
                firstRouted.accept(podId);
            }
        }
        counts[0].add(promptTokens);
        counts[1].add(cachedTokens);
    }

    /** Told (on the routing thread) of each pod the first time it is {@link #routed}, e.g. to show its series at once. */
    public void onFirstRouted(Consumer<String> listener) {
        this.firstRouted = listener;
    }

    /** Prompt tokens routed to the pod to compute (see {@link #routed}). */
    public long routedPromptTokens(String podId) {
        LongAdder[] counts = predicted.get(podId);
        return counts == null ? 0 : counts[0].sum();
    }

    /** Of those, the tokens its view predicted cached. */
    public long predictedCachedTokens(String podId) {
        LongAdder[] counts = predicted.get(podId);
        return counts == null ? 0 : counts[1].sum();
    }

    /** Pods with routed-token counts. */
    public Collection<String> routedPods() {
        return predicted.keySet();
    }

    /** Re-reads every pod's capacity (engines report theirs through the scraped metrics). */
    public void refreshCapacities() {
        for (Pod pod : podsById.values()) {
            CacheModel view = models.get(pod.model());
            if (view != null) {
                view.capacity(pod.id(), capacityBlocks.applyAsInt(pod));
            }
        }
    }

    /** Whether the pod's engine events are flowing (then its view follows them). */
    public boolean eventsLive(String podId) {
        return live.getOrDefault(podId, false);
    }

    @Override
    public void stored(String podId, long[] blockHashes) {
        Pod pod = podsById.get(podId);
        if (pod != null) {
            model(pod.model()).stored(podId, pod.address(), blockHashes, capacityBlocks.applyAsInt(pod));
        }
    }

    @Override
    public void removed(String podId, long[] blockHashes) {
        Pod pod = podsById.get(podId);
        if (pod != null) {
            model(pod.model()).removed(podId, blockHashes);
        }
    }

    @Override
    public void cleared(String podId) {
        Pod pod = podsById.get(podId);
        if (pod != null) {
            model(pod.model()).cleared(podId);
        }
    }

    @Override
    public void live(String podId, boolean flowing) {
        Pod pod = podsById.get(podId);
        if (pod != null) {
            live.put(podId, flowing);
            model(pod.model()).eventsLive(podId, pod.address(), capacityBlocks.applyAsInt(pod), flowing);
        }
    }

    /** The pods of discovery's view as last applied by {@link #retainOnly}: the ones events are accepted for. */
    public Collection<Pod> pods() {
        return podsById.values();
    }

    /** Blocks held over every model and pod. */
    public long totalBlocks() {
        long total = 0;
        for (CacheModel view : models.values()) {
            total += view.totalBlocks();
        }
        return total;
    }
}
