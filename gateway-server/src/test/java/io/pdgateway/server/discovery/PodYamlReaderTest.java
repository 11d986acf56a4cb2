package io.pdgateway.server.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pdgateway.core.model.Pod;
import io.pdgateway.core.model.PodRole;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The pod file is what kubectl prints; routable pods come out, everything odd is a warning, not a failure. */
class PodYamlReaderTest {
    private static PodYamlReader.Result read(String yaml) throws IOException {
        return PodYamlReader.read(yaml.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void kubectlList_readsLabelsAnnotationsAndDefaults() throws IOException {
        PodYamlReader.Result result = read("""
                apiVersion: v1
                kind: List
                items:
                - apiVersion: v1
                  kind: Pod
                  metadata:
                    name: prefill-0
                    namespace: llm
                    labels:
                      model.aibrix.ai/name: my-model
                      model.aibrix.ai/port: "8100"
                      model.aibrix.ai/engine: vllm
                      model.aibrix.ai/kv-connector-type: nixl
                      role-name: prefill
                      roleset-name: group-0
                    annotations:
                      model.aibrix.ai/config: |
                        {"profiles":{"default":{"routingStrategy":"pd"}}}
                  status:
                    podIP: 10.1.2.3
                    conditions:
                    - type: Ready
                      status: "True"
                - apiVersion: v1
                  kind: Pod
                  metadata:
                    name: standard-0
                    labels:
                      model.aibrix.ai/name: my-model
                  status:
                    podIP: 10.1.2.4
                """);
        assertThat(result.pods()).hasSize(2);
        Pod prefill = result.pods().get(0);
        assertThat(prefill.id()).isEqualTo("llm/prefill-0");
        assertThat(prefill.port()).isEqualTo(8100);
        assertThat(prefill.metricPort()).isEqualTo(8100);
        assertThat(prefill.role()).isEqualTo(PodRole.PREFILL);
        assertThat(prefill.rolesetName()).isEqualTo("group-0");
        assertThat(prefill.kvConnectorType()).isEqualTo("nixl");
        assertThat(prefill.config().resolve(null).routingStrategy()).isEqualTo("pd");
        Pod standard = result.pods().get(1);
        assertThat(standard.id()).isEqualTo("default/standard-0");
        assertThat(standard.port()).isEqualTo(8000);
        assertThat(standard.engine()).isEqualTo("vllm");
        assertThat(standard.role()).isEqualTo(PodRole.OTHER);
        assertThat(standard.sglangBootstrapPort()).isEqualTo(8998);
        assertThat(result.warnings()).isEmpty();
    }

    @Test
    void multiDocument_unroutablePodsSkipped() throws IOException {
        PodYamlReader.Result result = read("""
                kind: Pod
                metadata: {name: ok, labels: {model.aibrix.ai/name: m}}
                status: {podIP: 10.0.0.1}
                ---
                kind: Pod
                metadata: {name: no-ip, labels: {model.aibrix.ai/name: m}}
                status: {}
                ---
                kind: Pod
                metadata: {name: unready, labels: {model.aibrix.ai/name: m}}
                status: {podIP: 10.0.0.2, conditions: [{type: Ready, status: "False"}]}
                ---
                kind: Pod
                metadata: {name: deleting, deletionTimestamp: "2026-11-29T10:00:00Z", labels: {model.aibrix.ai/name: m}}
                status: {podIP: 10.0.0.3}
                ---
                kind: Pod
                metadata: {name: not-a-model-pod, labels: {app: redis}}
                status: {podIP: 10.0.0.4}
                """);
        assertThat(result.pods()).extracting(Pod::name).containsExactly("ok");
        assertThat(result.skipped()).isEqualTo(4);
    }

    @Test
    void invalidAnnotationAndPort_warnedPodKept() throws IOException {
        PodYamlReader.Result result = read("""
                kind: Pod
                metadata:
                  name: p
                  labels: {model.aibrix.ai/name: m, model.aibrix.ai/port: "http"}
                  annotations: {model.aibrix.ai/config: "{broken"}
                status: {podIP: 10.0.0.1}
                """);
        assertThat(result.pods()).hasSize(1);
        assertThat(result.pods().get(0).config()).isNull();
        assertThat(result.pods().get(0).port()).isEqualTo(8000);
        assertThat(result.warnings()).hasSize(2)
                .anySatisfy(w -> assertThat(w).contains("default/p").contains("model.aibrix.ai/config"))
                .anySatisfy(w -> assertThat(w).contains("model.aibrix.ai/port=http"));
    }

    @Test
    void routingKeyOutsideRoutingConfig_warnedConfigKept() throws IOException {
        PodYamlReader.Result result = read("""
                kind: Pod
                metadata:
                  name: p
                  labels: {model.aibrix.ai/name: m}
                  annotations:
                    model.aibrix.ai/config: '{"profiles":{"default":{"routingStrategy":"pd","decodeScorePolicy":"token_load"}}}'
                status: {podIP: 10.0.0.1}
                """);
        assertThat(result.pods()).hasSize(1);
        assertThat(result.pods().get(0).config().resolve(null).routingStrategy()).isEqualTo("pd");
        assertThat(result.warnings()).singleElement().satisfies(w -> assertThat(w).contains("default/p")
                .contains("decodeScorePolicy").contains("inside \"routingConfig\""));
    }

    @Test
    void brokenYaml_throws() {
        assertThatThrownBy(() -> read("items: [ {metadata: ")).isInstanceOf(IOException.class);
    }

    @Test
    void emptyFile_isAFileCaughtMidWrite_notAnEmptyCluster() throws IOException {
        // A writer that truncates before it writes leaves an empty file for a moment: that must not drop every pod.
        assertThatThrownBy(() -> read("")).isInstanceOf(IOException.class);
        assertThatThrownBy(() -> read("  \n# only a comment\n")).isInstanceOf(IOException.class);
        assertThat(read("apiVersion: v1\nkind: List\nitems: []\n").pods()).as("no pods, said so").isEmpty();
    }

    @Test
    void shippedExample_parsesIntoOneCompleteRoleset() throws IOException {
        byte[] yaml = java.nio.file.Files.readAllBytes(java.nio.file.Path.of("../examples/pods-vllm-pd.yaml"));
        io.pdgateway.core.model.ClusterSnapshot snapshot =
                io.pdgateway.core.model.ClusterSnapshot.of(PodYamlReader.read(yaml).pods());
        assertThat(snapshot.model("my-model").rolesets().get("group-0").isComplete()).isTrue();
    }
}
