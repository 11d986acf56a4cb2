package io.pdgateway.server.demo;

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
 * The demo's simulated cluster, shaped like the spec's "Complete Example": two vLLM prefill/decode rolesets for
 * prompts up to 2048 tokens and one standard pod for longer prompts and overflow. Each pod listens on its own
 * loopback address, so a request sent to the wrong pod fails visibly.
 */
public final class DemoCluster {
    public static final String MODEL = "my-model";
    /** The spec's complete example: PD pods take 0–2048-token prompts, the standard pod 2048 and up. */
    static final int PD_BUCKET_MAX = 2048;

    private static final String PD_PROFILE = "{\"profiles\":{\"default\":{\"routingStrategy\":\"pd\",\"routingConfig\":"
            + "{\"promptLenBucketMinLength\":0,\"promptLenBucketMaxLength\":" + PD_BUCKET_MAX + "}}}}";
    private static final String STANDARD_PROFILE = "{\"profiles\":{\"default\":{\"routingStrategy\":\"pd\","
            + "\"routingConfig\":{\"combined\":true,\"promptLenBucketMinLength\":" + PD_BUCKET_MAX + "}}}}";

    private record Layout(String name, SimRole role, String roleset) {}

    private static final List<Layout> LAYOUT = List.of(
            new Layout("prefill-0", SimRole.PREFILL, "group-0"),
            new Layout("decode-0", SimRole.DECODE, "group-0"),
            new Layout("prefill-1", SimRole.PREFILL, "group-1"),
            new Layout("decode-1", SimRole.DECODE, "group-1"),
            new Layout("standard-0", SimRole.COMBINED, null));

    private final List<SimPod> sims;
    private final List<PodManifest.Entry> entries;

    private DemoCluster(List<SimPod> sims, List<PodManifest.Entry> entries) {
        this.sims = sims;
        this.entries = entries;
    }

    /** Starts every pod (one after another, each on the next loopback address) and writes the pod file. */
    public static Future<DemoCluster> start(Vertx vertx, double timeScale, Path podFile) {
        List<SimPod> sims = new ArrayList<>();
        List<PodManifest.Entry> entries = new ArrayList<>();
        Future<Void> chain = Future.succeededFuture();
        for (int i = 0; i < LAYOUT.size(); i++) {
            Layout layout = LAYOUT.get(i);
            String host = "127.0.0." + (2 + i);
            long seed = i + 1;
            chain = chain.compose(v -> SimPod.start(vertx, SimConfig.builder().role(layout.role()).host(host)
                            .modelName(MODEL).timeScale(timeScale).seed(seed).build())
                    .map(pod -> {
                        sims.add(pod);
                        entries.add(entry(layout, pod));
                        return null;
                    }));
        }
        return chain.map(v -> {
            PodManifest.write(podFile, entries);
            return new DemoCluster(sims, entries);
        });
    }

    private static PodManifest.Entry entry(Layout layout, SimPod pod) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(SpecLabels.MODEL_NAME, MODEL);
        labels.put(SpecLabels.PORT, Integer.toString(pod.port()));
        labels.put(SpecLabels.ENGINE, "vllm");
        if (layout.roleset() != null) {
            labels.put(SpecLabels.ROLE_NAME, layout.role() == SimRole.PREFILL ? "prefill" : "decode");
            labels.put(SpecLabels.ROLESET_NAME, layout.roleset());
        }
        String profile = layout.roleset() == null ? STANDARD_PROFILE : PD_PROFILE;
        return new PodManifest.Entry("default", layout.name(), labels, Map.of(SpecLabels.CONFIG, profile), pod.host(),
                true);
    }

    public List<SimPod> sims() {
        return List.copyOf(sims);
    }

    public List<PodManifest.Entry> entries() {
        return List.copyOf(entries);
    }

    public Future<Void> close() {
        List<Future<Void>> closing = new ArrayList<>();
        sims.forEach(s -> closing.add(s.close()));
        return Future.all(closing).mapEmpty();
    }
}
