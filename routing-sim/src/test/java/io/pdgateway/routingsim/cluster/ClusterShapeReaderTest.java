package io.pdgateway.routingsim.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pdgateway.core.model.ModelPods;
import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import io.pdgateway.routingsim.event.EventQueue;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Cluster shapes: the shipped examples parse, the pods come out as discovery would build them (labels, rolesets,
 * bucket ranges, standard pods), overrides reach the timing profile, and a misspelt key is an error naming it.
 */
class ClusterShapeReaderTest {

    @Test
    void shippedExamples_parse() throws Exception {
        assertThat(ClusterShapeReader.read(Path.of("clusters/small.yaml")).podCount()).isEqualTo(13);
        assertThat(ClusterShapeReader.read(Path.of("clusters/pd6.yaml")).podCount()).isEqualTo(12);
        assertThat(ClusterShapeReader.read(Path.of("clusters/thousand.yaml")).podCount()).isEqualTo(1000);
        assertThat(ClusterShapeReader.read(Path.of("clusters/one-pair.yaml")).podCount()).isEqualTo(2);
        assertThat(ClusterShapeReader.read(Path.of("clusters/one-standard.yaml")).podCount()).isEqualTo(1);
    }

    @Test
    void pods_asDiscoveryBuildsThem_withBucketsAndStandardPods() throws Exception {
        ClusterShape shape = ClusterShapeReader.parse("""
                rolesets:
                  - {name: short, replicas: 2, prefill: 1, decode: 2, bucket: [0, 4096]}
                standard:
                  - {name: std, replicas: 1, bucket: [4097, 0]}
                """, "test");
        SimCluster cluster = SimCluster.build(shape, new EventQueue(), 50_000_000L);
        ModelPods model = cluster.model();
        assertThat(model.pods()).hasSize(7);
        assertThat(model.rolesets()).containsOnlyKeys("short-0", "short-1");
        assertThat(model.rolesets().get("short-0").decodes()).hasSize(2);
        Pod standard = model.pods().stream().filter(p -> p.name().equals("std-0")).findFirst().orElseThrow();
        assertThat(standard.role()).isEqualTo(PodRole.OTHER);
        assertThat(standard.isStandard(null)).isTrue();
        assertThat(standard.routingConfig(null).coversPromptLength(5000)).isTrue();
        Pod prefill = model.rolesets().get("short-1").prefills().get(0);
        assertThat(prefill.name()).isEqualTo("short-1-prefill-0");
        assertThat(prefill.routingConfig(null).coversPromptLength(5000)).isFalse();
        assertThat(cluster.engines()).hasSize(7);
    }

    @Test
    void timingOverrides_reachTheProfile() throws Exception {
        ClusterShape shape = ClusterShapeReader.parse("""
                timing: {profile: llama3-70b-tp4-h100, kvCapacityTokens: 100000, maxNumSeqs: 64,
                         transfer: {setupMillis: 0.3, bytesPerSecond: 150.0e9}}
                rolesets: [{name: pd}]
                """, "test");
        assertThat(shape.timing().name()).isEqualTo("llama3-70b-tp4-h100");
        assertThat(shape.timing().kvCapacityTokens()).isEqualTo(100_000);
        assertThat(shape.timing().maxNumSeqs()).isEqualTo(64);
        assertThat(shape.timing().transferSetupMillis()).isEqualTo(0.3);
    }

    @Test
    void misspeltKey_isAnErrorNamingIt() {
        assertThatThrownBy(() -> ClusterShapeReader.parse("rolesets: [{name: pd, replica: 3}]", "test"))
                .hasMessageContaining("replica");
        assertThatThrownBy(() -> ClusterShapeReader.parse("rolesets: []", "test")).hasMessageContaining("no pods");
    }
}
