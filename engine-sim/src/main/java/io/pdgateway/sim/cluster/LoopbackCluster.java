package io.pdgateway.sim.cluster;

import io.pdgateway.core.spec.SpecLabels;
import io.pdgateway.sim.SimConfig;
import io.pdgateway.sim.SimPod;
import io.pdgateway.sim.SimRole;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A simulated cluster of vLLM pods on loopback, in the shape given, and the pod file that lists them. Each pod
 * listens on its own loopback address, so a request sent to the wrong pod fails visibly. Used by {@code demo}, by
 * {@code bench compare}, which starts a fresh one for every policy so no run inherits another's caches, and by
 * routing-sim's loopback validation. Not routing-sim's virtual {@code cluster.SimCluster}: these pods are real servers.
 */
public final class LoopbackCluster {
    public static final String MODEL = "my-model";
    /** Pods take 127.0.0.2, 127.0.0.3, ... (up to 253 pods): 127.0.0.1 stays free for the gateway and the client. */
    static final int FIRST_HOST = 2;
    static final int MAX_HOST = 255;

    private record Layout(String name, SimRole role, String roleset) {}

    private final List<SimPod> sims;
    private final List<PodManifest.Entry> entries;

    private LoopbackCluster(List<SimPod> sims, List<PodManifest.Entry> entries) {
        this.sims = sims;
        this.entries = entries;
    }

    /** Starts every pod (one after another, each on the next loopback address) and writes the pod file. */
    public static Future<LoopbackCluster> start(Vertx vertx, LoopbackClusterShape shape, Path podFile) {
        List<Layout> layout = layout(shape);
        if (FIRST_HOST + layout.size() > MAX_HOST) {
            return Future.failedFuture(new IllegalArgumentException("at most " + (MAX_HOST - FIRST_HOST) + " pods"));
        }
        List<SimPod> sims = new ArrayList<>();
        List<PodManifest.Entry> entries = new ArrayList<>();
        Future<Void> chain = Future.succeededFuture();
        for (int i = 0; i < layout.size(); i++) {
            Layout pod = layout.get(i);
            String host = "127.0.0." + (FIRST_HOST + i);
            long seed = i + 1;
            chain = chain.compose(v -> SimPod.start(vertx, SimConfig.builder().role(pod.role()).host(host)
                            .modelName(MODEL).timing(shape.timing()).timeScale(shape.timeScale()).seed(seed).build())
                    .map(sim -> {
                        sims.add(sim);
                        entries.add(entry(pod, sim, shape));
                        return null;
                    }));
        }
        return chain.map(v -> {
            PodManifest.write(podFile, entries);
            return new LoopbackCluster(sims, entries);
        }).recover(err -> {
            // A pod that did not start leaves the others running: stop them before reporting the failure.
            List<Future<Void>> closing = new ArrayList<>();
            sims.forEach(s -> closing.add(s.close()));
            return Future.join(closing).transform(ar -> Future.failedFuture(err));
        });
    }

    private static List<Layout> layout(LoopbackClusterShape shape) {
        List<Layout> layout = new ArrayList<>();
        for (int r = 0; r < shape.rolesets(); r++) {
            for (int i = 0; i < shape.prefillPerRoleset(); i++) {
                layout.add(new Layout(name("prefill-", r, i, shape.prefillPerRoleset()), SimRole.PREFILL, "group-" + r));
            }
            for (int i = 0; i < shape.decodePerRoleset(); i++) {
                layout.add(new Layout(name("decode-", r, i, shape.decodePerRoleset()), SimRole.DECODE, "group-" + r));
            }
        }
        for (int s = 0; s < shape.standardPods(); s++) {
            layout.add(new Layout("standard-" + s, SimRole.COMBINED, null));
        }
        return layout;
    }

    /** prefill-0 when a roleset has one prefill pod (the demo's names), prefill-0-1 for the second of several. */
    private static String name(String prefix, int roleset, int index, int perRoleset) {
        return prefix + roleset + (perRoleset > 1 ? "-" + index : "");
    }

    private static PodManifest.Entry entry(Layout layout, SimPod pod, LoopbackClusterShape shape) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(SpecLabels.MODEL_NAME, MODEL);
        labels.put(SpecLabels.PORT, Integer.toString(pod.port()));
        labels.put(SpecLabels.ENGINE, "vllm");
        if (layout.roleset() != null) {
            labels.put(SpecLabels.ROLE_NAME, layout.role() == SimRole.PREFILL ? "prefill" : "decode");
            labels.put(SpecLabels.ROLESET_NAME, layout.roleset());
        }
        String config = layout.roleset() == null ? shape.standardConfig() : shape.pdConfig();
        return new PodManifest.Entry("default", layout.name(), labels,
                config == null ? Map.of() : Map.of(SpecLabels.CONFIG, config), pod.host(), true);
    }

    public List<SimPod> sims() {
        return List.copyOf(sims);
    }

    public List<PodManifest.Entry> entries() {
        return List.copyOf(entries);
    }

    /** Requests the pods are still streaming: 0 once every request ended. */
    public int openStreams() {
        return sims.stream().mapToInt(SimPod::openStreams).sum();
    }

    public Future<Void> close() {
        List<Future<Void>> closing = new ArrayList<>();
        sims.forEach(s -> closing.add(s.close()));
        return Future.join(closing).mapEmpty();
    }
}
