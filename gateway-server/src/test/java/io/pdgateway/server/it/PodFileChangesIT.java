package io.pdgateway.server.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pdgateway.core.spec.SpecLabels;
import io.pdgateway.sim.cluster.PodManifest;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/** The pod file changing under a running gateway: pods added, removed, relabelled, and a broken file ignored. */
class PodFileChangesIT {
    /** design.md §2: pod-file changes take effect within two seconds; allow one more for a slow CI machine. */
    private static final long FOLLOW_SECONDS = 3;
    @AutoClose
    private TestCluster cluster;

    private String servedBy() throws Exception {
        var response = cluster.post("/v1/chat/completions", TestCluster.chat("x", 1, false), "routing-strategy", "pd");
        return response.statusCode() + " " + response.headers().firstValue("target-pod").orElse("-");
    }

    @Test
    void podsAddedRemovedRelabelled_routingFollows() throws Exception {
        cluster = new TestCluster().prefill("prefill-a", "rs-a").decode("decode-a", "rs-a")
                .startGateway(Map.of("AIBRIX_PROMPT_LENGTH_BUCKETING", "true"));
        assertThat(servedBy()).isEqualTo("200 decode-a");
        PodManifest.Entry prefillA = cluster.entry("prefill-a");
        PodManifest.Entry decodeA = cluster.entry("decode-a");

        // Added: a second roleset appears, and the first goes away.
        cluster.prefill("prefill-b", "rs-b").decode("decode-b", "rs-b");
        cluster.replaceEntry("prefill-a", null);
        cluster.replaceEntry("decode-a", null);
        await().atMost(FOLLOW_SECONDS, TimeUnit.SECONDS).until(this::servedBy, "200 decode-b"::equals);
        assertThat(cluster.get("/readyz").statusCode()).isEqualTo(200);

        // Relabelled: decode-b moves to another roleset, so rs-b is incomplete; a standard pod takes over.
        cluster.standard("standard-0");
        Map<String, String> labels = new LinkedHashMap<>(cluster.entry("decode-b").labels());
        labels.put(SpecLabels.ROLESET_NAME, "rs-elsewhere");
        PodManifest.Entry old = cluster.entry("decode-b");
        cluster.replaceEntry("decode-b", new PodManifest.Entry(old.namespace(), old.name(), labels, old.annotations(),
                old.podIp(), true));
        await().atMost(FOLLOW_SECONDS, TimeUnit.SECONDS).until(this::servedBy, "200 standard-0"::equals);

        // Turned unready: the standard pod stops serving, nothing is left → 503.
        PodManifest.Entry standard = cluster.entry("standard-0");
        cluster.replaceEntry("standard-0", new PodManifest.Entry(standard.namespace(), standard.name(), standard.labels(),
                standard.annotations(), standard.podIp(), false));
        await().atMost(FOLLOW_SECONDS, TimeUnit.SECONDS).until(this::servedBy, s -> s.startsWith("503"));

        // Back: the original pair returns.
        cluster.replaceEntry("prefill-a", prefillA);
        cluster.replaceEntry("decode-a", decodeA);
        await().atMost(FOLLOW_SECONDS, TimeUnit.SECONDS).until(this::servedBy, "200 decode-a"::equals);
    }

    @Test
    void brokenFile_lastGoodViewKept() throws Exception {
        cluster = new TestCluster().prefill("prefill-a", "rs-a").decode("decode-a", "rs-a")
                .startGateway(Map.of());
        // Served once before the file breaks: a cold first request (class loading on a busy machine) must not eat
        // into the window below.
        assertThat(servedBy()).isEqualTo("200 decode-a");
        Files.writeString(cluster.podFile, "items: [ {metadata: ");
        // Give the poller time to see the broken file: the pod must keep serving meanwhile, and afterwards. The
        // window must hold for 1.5 s; the bound only caps a slow machine.
        await().during(1500, TimeUnit.MILLISECONDS).atMost(10, TimeUnit.SECONDS)
                .until(this::servedBy, "200 decode-a"::equals);
        assertThat(cluster.get("/readyz").statusCode()).isEqualTo(200);
    }
}
